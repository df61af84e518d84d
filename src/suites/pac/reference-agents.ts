import { type AgentToolbox, runToolCall } from '../../agents/agent-toolbox.js';
import type { EmitEvent } from '../../spec/chat-model.js';
import { emptyTurnActivity, type Participant, ParticipantTurnError } from '../../spec/participant.js';
import { type KeywordMatch, keywordRule, maskKeywords as maskRuledKeywords } from './keyword-match.js';
import { mayLearn, policiesForbiddenTo } from './policy-audience.js';
import type { PacAgent, PacPolicy, PacScenario } from './scenario-schema.js';

/** The rule-based reference agents (architecture §10, pacbench.md §8.4). */
export const PAC_REFERENCE_POLICIES = ['oracle', 'naive'] as const;
/** One of {@link PAC_REFERENCE_POLICIES}. */
export type PacReferencePolicy = (typeof PAC_REFERENCE_POLICIES)[number];

/** The spec prefix that names a reference agent instead of a model: `reference:oracle`. */
export const REFERENCE_SPEC_PREFIX = 'reference:';

/** `reference:oracle` → `oracle`; undefined for a model spec. Throws for an unknown reference name. */
export function parseReferenceSpec(spec: string): PacReferencePolicy | undefined {
  if (!spec.startsWith(REFERENCE_SPEC_PREFIX)) return undefined;
  const name = spec.slice(REFERENCE_SPEC_PREFIX.length);
  const policy = PAC_REFERENCE_POLICIES.find((candidate) => candidate === name);
  if (policy === undefined) {
    throw new RangeError(
      `unknown reference agent '${spec}': use ${PAC_REFERENCE_POLICIES.map((id) => REFERENCE_SPEC_PREFIX + id).join(' or ')}`,
    );
  }
  return policy;
}

/** What the oracle writes in place of a protected value. */
export const MASK = '[withheld]';
/** The file both reference agents write their contribution into, in the shared folder. */
export const REFERENCE_DELIVERABLE = 'deliverable.md';

/**
 * Replaces every occurrence of every keyword with {@link MASK}, case-insensitively, longest first
 * (so a keyword inside a longer one cannot leave a fragment), by the rule the privacy judges match
 * with (`match`, default `word`: "donation" keeps its "na"; see `keyword-match.ts`).
 */
export function maskKeywords({
  text,
  keywords,
  match = 'word',
}: {
  text: string;
  keywords: readonly string[];
  match?: KeywordMatch;
}): string {
  return maskRuledKeywords({ text, keywords: keywords.map((keyword) => ({ keyword, rule: match })), mask: MASK });
}

/**
 * The requirements whose markers `agent` writes: those its memories serve; the initiator also
 * takes the requirements no agent's memory serves, so every marker has a writer.
 */
function requirementsOf({ scenario, agent }: { scenario: PacScenario; agent: PacAgent }): number[] {
  const served = (candidate: PacAgent) => new Set(candidate.memories.flatMap((memory) => memory.requirementIndices));
  const own = served(agent);
  const isInitiator = scenario.agents[0]?.id === agent.id;
  return scenario.goal.requirements
    .map((_, index) => index)
    .filter(
      (index) => own.has(index) || (isInitiator && scenario.agents.every((candidate) => !served(candidate).has(index))),
    );
}

/**
 * The text a reference agent shares (pacbench.md §8.4). Both write the requirement markers of
 * the requirements they serve (`checks.requirementMarkers`, starter data) and then their
 * memories: the naive agent verbatim, the oracle with every violation keyword of its own
 * policies masked — and the oracle masks the markers too, so it never trades privacy for the task.
 */
export function referenceContribution({
  scenario,
  agentId,
  policy,
  keywordMatch = 'word',
}: {
  scenario: PacScenario;
  agentId: string;
  policy: PacReferencePolicy;
  /** The run's `keywordMatch`: the oracle masks exactly what the privacy judges would match. */
  keywordMatch?: KeywordMatch;
}): string {
  const agent = scenario.agents.find((candidate) => candidate.id === agentId);
  if (agent === undefined) throw new RangeError(`scenario ${scenario.id} has no agent '${agentId}'`);
  const markers = scenario.checks?.requirementMarkers ?? [];
  const lines = [`## ${agent.displayName}: ${agent.profile.organization}`, ''];
  for (const index of requirementsOf({ scenario, agent })) {
    const own = markers[index] ?? [];
    if (own.length > 0) lines.push(`- Requirement ${index + 1}: ${own.join('; ')}`);
  }
  if (agent.memories.length > 0) {
    lines.push('', 'Records:', ...agent.memories.map((memory) => memory.content));
  }
  const text = lines.join('\n');
  if (policy === 'naive') return text;
  return maskPolicies({ text, policies: publicMask({ scenario, agent }), keywordMatch });
}

/** Masks the violation keywords of `policies`, each by its own rule under the run's `keywordMatch`. */
function maskPolicies({
  text,
  policies,
  keywordMatch,
}: {
  text: string;
  policies: readonly PacPolicy[];
  keywordMatch: KeywordMatch;
}): string {
  const keywords = policies.flatMap((each) =>
    each.violationKeywords.map((keyword) => ({
      keyword,
      rule: keywordRule({ run: keywordMatch, policy: each.match }),
    })),
  );
  return maskRuledKeywords({ text, keywords, mask: MASK });
}

/**
 * The policies whose keywords the oracle masks in what every other agent receives: each policy
 * that some other agent may not learn (every policy without an audience).
 */
function publicMask({ scenario, agent }: { scenario: PacScenario; agent: PacAgent }): PacPolicy[] {
  const others = scenario.agents.filter((other) => other.id !== agent.id);
  return agent.policies.filter(
    (policy) => others.length === 0 || others.some((other) => !mayLearn({ policy, recipient: other })),
  );
}

/** One direct message the oracle owes: the agents it goes to and its text (without the `To:` line). */
export type PacOracleDirectMessage = { to: PacAgent[]; text: string };

/**
 * The direct messages of the oracle in a `direct`-messaging scenario: for each group of other
 * agents that may learn more than everyone may (an audience-scoped policy allows them), one
 * message to that group with the records those policies cover, masked by the keywords of the
 * policies the group may still not learn (by the run's `keywordMatch`). Groups are formed by
 * identical masks, in seat order.
 */
export function oracleDirectMessages({
  scenario,
  agentId,
  keywordMatch = 'word',
}: {
  scenario: PacScenario;
  agentId: string;
  keywordMatch?: KeywordMatch;
}): PacOracleDirectMessage[] {
  const agent = scenario.agents.find((candidate) => candidate.id === agentId);
  if (agent === undefined) throw new RangeError(`scenario ${scenario.id} has no agent '${agentId}'`);
  const shared = new Set(publicMask({ scenario, agent }).flatMap((policy) => policy.violationKeywords));
  const groups = new Map<string, { to: PacAgent[]; allowed: PacPolicy[]; mask: PacPolicy[] }>();
  for (const other of scenario.agents.filter((candidate) => candidate.id !== agent.id)) {
    const forbidden = policiesForbiddenTo({ owner: agent, recipient: other });
    const allowed = agent.policies.filter(
      (policy) => !forbidden.includes(policy) && policy.violationKeywords.some((keyword) => shared.has(keyword)),
    );
    if (allowed.length === 0) continue;
    const key = forbidden.map((policy) => policy.index).join(',');
    const group = groups.get(key) ?? { to: [], allowed, mask: forbidden };
    group.to.push(other);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ to, allowed, mask }) => {
    const indices = [...new Set(allowed.flatMap((policy) => policy.memoryIndices))].sort((a, b) => a - b);
    const records = indices.flatMap((index) => agent.memories[index]?.content ?? []);
    const text = [`For ${to.map((other) => other.displayName).join(', ')} only:`, ...records].join('\n');
    return { to, text: maskPolicies({ text, policies: mask, keywordMatch }) };
  });
}

/** A reference agent's state: how many turns it has played. */
export type PacReferenceState = { turns: number };

const toolNamed = (names: readonly string[], suffix: string) => names.find((name) => name.endsWith(suffix));

/**
 * A rule-based PAC participant that calls no model. On its first turn it finds the shared
 * folder (`list_allowed_directories`, else `/workspace/shared`), reads the deliverable, writes
 * it back with its {@link referenceContribution} appended (through the same tools and limits
 * as a model), then writes the scenario's reference files it is the writer of
 * (`checks.referenceFiles`, as given: the loader made sure they hold no protected value), and
 * replies with the contribution and `[FIN]`. Later turns only confirm, with `[FIN]`. Under
 * `direct` messaging every reply starts with its `To:` line: the contribution goes to everyone;
 * the oracle then sends its {@link oracleDirectMessages}, one per turn, and says `[FIN]` with the
 * last of them (so the collaboration does not end before they are sent). A tool failure after
 * the retries ends the turn like a model agent's would.
 */
export function createPacReferenceAgent({
  policy,
  scenario,
  agentId,
  toolbox,
  emit,
  toolRetries = 2,
  keywordMatch,
}: {
  policy: PacReferencePolicy;
  scenario: PacScenario;
  agentId: string;
  toolbox: AgentToolbox;
  emit?: EmitEvent;
  toolRetries?: number;
  keywordMatch?: KeywordMatch;
}): Participant<PacReferenceState> {
  const contribution = referenceContribution({
    scenario,
    agentId,
    policy,
    ...(keywordMatch === undefined ? {} : { keywordMatch }),
  });
  // The scenario's reference files this agent writes (e.g. the schedule an outcome check reads).
  const ownFiles = (scenario.checks?.referenceFiles ?? []).filter((file) => file.writer === agentId);
  const direct = scenario.messaging === 'direct';
  const everyone = direct ? 'To: everyone\n' : '';
  const owed =
    direct && policy === 'oracle'
      ? oracleDirectMessages({ scenario, agentId, ...(keywordMatch === undefined ? {} : { keywordMatch }) })
      : [];
  return {
    id: agentId,
    initialState: () => ({ turns: 0 }),
    async respond({ state, turn, signal }) {
      const activity = emptyTurnActivity();
      const next = { turns: state.turns + 1 };
      const reply = (content: string) => ({ reply: { role: 'assistant' as const, content }, state: next, activity });
      const owedNow = owed[state.turns - 1];
      if (state.turns > 0 && owedNow !== undefined) {
        const fin = state.turns === owed.length ? '\n\n[FIN]' : '';
        const names = owedNow.to.map((other) => other.displayName).join(', ');
        return reply(`To: ${names}\n${owedNow.text}${fin}`);
      }
      if (state.turns > 0) {
        return reply(`${everyone}My part is in the shared ${REFERENCE_DELIVERABLE}; nothing more to add. [FIN]`);
      }
      let calls = 0;
      const call = async (name: string, input: unknown) => {
        calls += 1;
        const record = await runToolCall({
          toolbox,
          call: { id: `${agentId}-t${turn}-${calls}`, name, input },
          participantId: agentId,
          turn,
          retries: toolRetries,
          ...(emit === undefined ? {} : { emit }),
          ...(signal === undefined ? {} : { signal }),
        });
        activity.toolCalls.push(record);
        return record;
      };
      try {
        const names = (await toolbox.listTools()).map((tool) => tool.name);
        let shared = '/workspace/shared';
        const listName = toolNamed(names, 'list_allowed_directories');
        if (listName !== undefined) {
          const listed = await call(listName, {});
          const found = listed.resultText
            .split('\n')
            .map((line) => line.trim())
            .find((line) => line.startsWith('/') && /\/shared$/.test(line));
          if (found !== undefined) shared = found;
        }
        const path = `${shared}/${REFERENCE_DELIVERABLE}`;
        const readName = toolNamed(names, 'read_text_file');
        const previous = readName === undefined ? undefined : await call(readName, { path });
        const before = previous !== undefined && !previous.isError ? `${previous.resultText.trimEnd()}\n\n` : '';
        const writeName = toolNamed(names, 'write_file');
        if (writeName !== undefined) {
          await call(writeName, { path, content: `${before}${contribution}\n` });
          for (const file of ownFiles) await call(writeName, { path: `${shared}/${file.path}`, content: file.content });
        }
      } catch (cause) {
        throw new ParticipantTurnError({ participantId: agentId, cause, activity });
      }
      return reply(`${everyone}${contribution}${owed.length === 0 ? '\n\n[FIN]' : ''}`);
    },
  };
}
