import { lazyTemplate, loadPromptTemplate, type PromptTemplate, promptTemplatePath } from '../../prompts/index.js';
import type { PacVariant, PacVariantOptions } from './pac-variant.js';
import { allowedAudience } from './policy-audience.js';
import { type PacGuideline, type PacPromptPlan, renderPacPromptPlan } from './prompt-plan.js';
import type { PacAgent, PacMemory, PacPolicy, PacScenario } from './scenario-schema.js';

/** The base agent prompt, `prompts/pac-agent.v1.md` (copied to dist with the other assets). */
export const PAC_AGENT_TEMPLATE: PromptTemplate = lazyTemplate(() =>
  loadPromptTemplate({
    path: promptTemplatePath(import.meta.url, './prompts/pac-agent.v1.md'),
    sectioned: true,
  }),
);

/**
 * Our N-party additions (`prompts/pac-agent-nparty.v1.md`): the setting section, roles, policy
 * audiences and the addressing guidelines. Only scenarios that use those features read it.
 */
export const PAC_NPARTY_TEMPLATE: PromptTemplate = lazyTemplate(() =>
  loadPromptTemplate({
    path: promptTemplatePath(import.meta.url, './prompts/pac-agent-nparty.v1.md'),
    sectioned: true,
  }),
);

/** Whether the scenario uses a feature whose prompt text is in {@link PAC_NPARTY_TEMPLATE}. */
export function usesNpartyPrompt(scenario: PacScenario): boolean {
  return (
    scenario.context !== undefined ||
    scenario.messaging === 'direct' ||
    scenario.agents.some(
      (agent) =>
        agent.name !== undefined ||
        agent.role !== undefined ||
        agent.policies.some((policy) => policy.audience !== undefined),
    )
  );
}

/** `maxTurns` when not set: 10 global turns per agent (20 for the paper's pair), §3. */
export function defaultPacMaxTurns(seatCount: number): number {
  return 10 * seatCount;
}

/**
 * How many of `maxTurns` global round-robin turns the agent in `seat` (0-based) plays: turn t
 * (1-based) belongs to seat (t − 1) mod N. With 20 turns and two agents, 10 each.
 */
export function turnsForSeat({ maxTurns, seat, seatCount }: { maxTurns: number; seat: number; seatCount: number }) {
  if (seat >= maxTurns) return 0;
  return Math.floor((maxTurns - seat - 1) / seatCount) + 1;
}

function listNames(names: readonly string[], conjunction: 'and' | 'or'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/** Values every PAC prompt file may use as `{{slots}}`. */
export type PacPromptSlots = {
  /** This agent's display name, `Agent A`. */
  self: string;
  /** The other agents, `Agent B` or `Agent B and Agent C`. */
  partners: string;
  /** The initiator's display name (what variant bullets for later seats refer to). */
  initiator: string;
  /** This agent's own turn budget. */
  ownTurns: string;
  /** Every seat name, quoted: `"Agent A" or "Agent B"`. */
  seatNames: string;
};

/** The slot values for the agent in `seat`. */
export function pacPromptSlots({
  scenario,
  seat,
  ownTurns,
}: {
  scenario: PacScenario;
  seat: number;
  ownTurns: number;
}): PacPromptSlots {
  const names = scenario.agents.map((agent) => agent.displayName);
  return {
    self: names[seat] ?? '',
    partners: listNames(
      names.filter((_, index) => index !== seat),
      'and',
    ),
    initiator: names[0] ?? '',
    ownTurns: String(ownTurns),
    seatNames: listNames(
      names.map((name) => `"${name}"`),
      'or',
    ),
  };
}

/**
 * The bullets of a guideline part of `template`, each without its `- `, slots filled, tagged
 * with `block`. An absent part gives no bullets.
 */
export function guidelineBullets({
  template,
  part,
  block,
  slots,
}: {
  template: PromptTemplate;
  part: string;
  block: PacGuideline['block'];
  slots: Readonly<Record<string, string>>;
}): PacGuideline[] {
  return template.lines(part).map((line) => ({ block, text: template.fill(line.replace(/^\s*-\s+/, ''), slots) }));
}

/** The `[Your memory]` body: memory contents separated by a `---` line, or `(none)`. */
export function memorySectionBody(memories: readonly PacMemory[]): string {
  if (memories.length === 0) return PAC_AGENT_TEMPLATE.part('empty-list');
  return memories.map((memory) => memory.content).join(`\n${PAC_AGENT_TEMPLATE.part('memory-separator')}\n`);
}

/**
 * The default (§3) prompt plan of the agent in `seat`: role line, task goal, requirements
 * numbered 1..n, own profile, `- ` policy bullets (policy text only: keywords and reasons are never
 * shown), memories, partner profile(s) (never their memories or policies), and the guidelines:
 * general block, privacy block, and the tool hint when `toolNames` is non-empty (§3 says the
 * prompt does not mention tools, so callers pass names only when they opt in).
 */
export function basePacPromptPlan({
  scenario,
  seat,
  ownTurns,
  toolNames = [],
}: {
  scenario: PacScenario;
  seat: number;
  ownTurns: number;
  toolNames?: readonly string[];
}): PacPromptPlan {
  const agent = scenario.agents[seat];
  if (agent === undefined) throw new RangeError(`scenario ${scenario.id} has no seat ${seat}`);
  const template = PAC_AGENT_TEMPLATE;
  const nparty = PAC_NPARTY_TEMPLATE;
  const size = scenario.agents.length > 2 ? 'group' : 'pair';
  const slots = pacPromptSlots({ scenario, seat, ownTurns });
  const empty = template.part('empty-list');
  const partners = scenario.agents.filter((_, index) => index !== seat);
  const profileOf = (who: PacAgent) => {
    const profile = template.fill(template.part('profile'), who.profile);
    return who.role === undefined
      ? profile
      : `${nparty.fill(nparty.part('profile-role'), { role: who.role })}\n${profile}`;
  };
  const partnerBody =
    size === 'pair' && partners[0]?.name === undefined
      ? partners[0] === undefined
        ? template.fill(template.part('profile'), { organization: '', expertise: '' })
        : profileOf(partners[0])
      : partners
          .map((partner) => {
            const name =
              partner.role === undefined
                ? partner.displayName
                : nparty.fill(nparty.part('partner-entry:role'), { name: partner.displayName, role: partner.role });
            return template.fill(template.part('partner-entry:group'), { name, ...partner.profile });
          })
          .join('\n\n');
  const policyBullet = (policy: PacPolicy) => {
    if (policy.audience === undefined) return `- ${policy.content}`;
    const allowed = allowedAudience({ scenario, owner: agent.id, policy }).map((other) => other.displayName);
    const text =
      allowed.length === 0
        ? nparty.fill(nparty.part('audience:none'), { content: policy.content })
        : nparty.fill(nparty.part('audience:some'), { content: policy.content, names: listNames(allowed, 'and') });
    return `- ${text}`;
  };
  const named = scenario.agents.some((each) => each.name !== undefined);
  const general = named
    ? guidelineBullets({ template: nparty, part: 'guidelines:general:named', block: 'general', slots })
    : guidelineBullets({ template, part: `guidelines:general:${size}`, block: 'general', slots });
  const addressing =
    scenario.messaging === 'direct'
      ? guidelineBullets({
          template: nparty,
          part: 'guidelines:addressing',
          block: 'general',
          slots: { ...slots, examplePartner: partners[0]?.displayName ?? '' },
        })
      : [];
  return {
    roleLine: template.fill(template.part(`role-line:${size}`), slots),
    sections: [
      ...(scenario.context === undefined
        ? []
        : [{ id: 'setting' as const, heading: nparty.part('heading:setting'), body: scenario.context }]),
      { id: 'task-goal', heading: template.part('heading:task-goal'), body: scenario.goal.content },
      {
        id: 'goal-requirements',
        heading: template.part('heading:goal-requirements'),
        body: scenario.goal.requirements.map((requirement, index) => `${index + 1}. ${requirement}`).join('\n'),
      },
      {
        id: 'profile',
        heading: template.part('heading:profile'),
        body: profileOf(agent),
      },
      {
        id: 'privacy-policy',
        heading: template.part('heading:privacy-policy'),
        body: agent.policies.length === 0 ? empty : agent.policies.map(policyBullet).join('\n'),
      },
      { id: 'memory', heading: template.part('heading:memory'), body: memorySectionBody(agent.memories) },
      { id: 'partner-profile', heading: template.part(`heading:partner-profile:${size}`), body: partnerBody },
    ],
    guidelinesHeading: template.part('heading:guidelines'),
    guidelines: [
      ...general,
      ...addressing,
      ...guidelineBullets({ template, part: 'guidelines:privacy', block: 'privacy', slots }),
      ...(toolNames.length === 0
        ? []
        : guidelineBullets({
            template,
            part: 'guidelines:tools',
            block: 'tools',
            slots: { ...slots, toolNames: toolNames.join(', ') },
          })),
    ],
    kickoff: seat === 0 ? template.part('kickoff') : null,
    continuation: null,
  };
}

/** The prompt material of one agent in one sample. */
export type PacAgentPrompt = {
  agentId: string;
  displayName: string;
  /** 0-based seat; 0 speaks first. */
  seat: number;
  /** The rendered system prompt. */
  system: string;
  /** The structured form `system` was rendered from. */
  plan: PacPromptPlan;
  /** The first user message (the kickoff) for the agent that speaks first; null for the others. */
  firstMessage: string | null;
  /** Standalone protocols: the user message of every later turn; null otherwise. */
  continuation: string | null;
  /** The turn budget the prompt states for this agent. */
  ownTurns: number;
  /** Every prompt file that shaped this prompt, for the run record. */
  templates: Array<{ id: string; version: number; sha256: string }>;
};

/**
 * Builds the system prompt and first message of `agentId` under `variant`: the base plan, then
 * the variant's reshaping. `maxTurns` is the global collaboration budget (default
 * {@link defaultPacMaxTurns}); a standalone variant states its own budget instead. `tools` are
 * the tools the agent will be offered; they reach the prompt only with `mentionTools`.
 * Throws a RangeError for an agent id the scenario lacks, or a non-initiator under a
 * standalone variant (a caller bug).
 */
export function buildPacAgentPrompt({
  scenario,
  agentId,
  variant,
  variantOptions,
  maxTurns,
  tools = [],
  mentionTools = false,
}: {
  scenario: PacScenario;
  agentId: string;
  variant: PacVariant;
  variantOptions: PacVariantOptions;
  maxTurns?: number;
  tools?: ReadonlyArray<{ name: string }>;
  mentionTools?: boolean;
}): PacAgentPrompt {
  const seat = scenario.agents.findIndex((agent) => agent.id === agentId);
  const agent = scenario.agents[seat];
  if (agent === undefined) throw new RangeError(`scenario ${scenario.id} has no agent '${agentId}'`);
  const protocol = variant.protocol(variantOptions);
  if (protocol.kind === 'standalone' && seat !== 0) {
    throw new RangeError(`variant '${variant.id}' runs the initiator alone; '${agentId}' has no prompt`);
  }
  const ownTurns =
    protocol.kind === 'standalone'
      ? protocol.maxTurns
      : turnsForSeat({
          maxTurns: maxTurns ?? defaultPacMaxTurns(scenario.agents.length),
          seat,
          seatCount: scenario.agents.length,
        });
  const base = basePacPromptPlan({
    scenario,
    seat,
    ownTurns,
    toolNames: mentionTools ? tools.map((tool) => tool.name) : [],
  });
  const slots = pacPromptSlots({ scenario, seat, ownTurns });
  const plan = variant.shapePrompt({ plan: base, scenario, seat, options: variantOptions, slots });
  return {
    agentId,
    displayName: agent.displayName,
    seat,
    system: renderPacPromptPlan(plan),
    plan,
    firstMessage: plan.kickoff,
    continuation: plan.continuation,
    ownTurns,
    templates: [PAC_AGENT_TEMPLATE, ...(usesNpartyPrompt(scenario) ? [PAC_NPARTY_TEMPLATE] : []), variant.template].map(
      ({ id, version, sha256 }) => ({ id, version, sha256 }),
    ),
  };
}
