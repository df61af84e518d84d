import { lazyTemplate } from '../prompts/lazy-template.js';
import type { Message } from '../spec/message.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { loadRoleTemplate, type RoleTemplate } from './role-template.js';
import { CHAIN_ROLES, type ChainRole, type StageMember, type Topology } from './topology.js';

/** One earlier stage's output as a later stage sees it: labelled by role (`Verifier 2`). */
export type UpstreamOutput = { role: ChainRole; label: string; text: string };

/** Everything a stage prompt may depend on. `upstream` holds only the stage's ancestors, in chain order. */
export type StagePromptContext = {
  prompt: TaskPrompt;
  topology: Topology;
  stageIndex: number;
  member: StageMember;
  upstream: readonly UpstreamOutput[];
};

/** Builds the messages one stage member is called with. */
export type StagePromptBuilder = (context: StagePromptContext) => Message[];

/** How the system is described in each role's system line, by `TaskPrompt.privacyMode`. */
export const SYSTEM_QUALITY = {
  naive: 'helpful',
  'privacy-enhanced': 'helpful and privacy-conscious',
} as const;

/** The shared system-line frame: `You are <label> in a <quality> AI multi-agent system made of <roles>. <statement>` */
export const CHAIN_SYSTEM_LINE_TEMPLATE = lazyTemplate(() =>
  loadRoleTemplate(import.meta.url, './prompts/chain-system-line.v1.md'),
);

/** The default role templates of `chain:<topology>` (statement + own instruction per role). */
export const CHAIN_ROLE_TEMPLATES: Readonly<Record<ChainRole, RoleTemplate>> = {
  generator: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-generator.v1.md')),
  verifier: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-verifier.v1.md')),
  refiner: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-refiner.v1.md')),
  extractor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-extractor.v1.md')),
  checker: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-checker.v1.md')),
  executor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/chain-executor.v1.md')),
};

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** `three roles: Generator, Verifier and Refiner` (distinct roles, in chain order). */
export function rolesPhrase(topology: Topology): string {
  const roles = [...new Set(topology.stages.flatMap((stage) => stage.members.map((member) => member.role)))];
  const count = NUMBER_WORDS[roles.length] ?? String(roles.length);
  return `${count} role${roles.length === 1 ? '' : 's'}: ${joinAnd(roles.map((role) => CHAIN_ROLES[role].title))}`;
}

/** `the Generator's response and Verifier 1's critique`; `the task` when there is nothing upstream. */
export function upstreamPhrase(upstream: readonly UpstreamOutput[]): string {
  if (upstream.length === 0) return 'the task';
  return joinAnd(
    upstream.map((output) => {
      const owner = output.label === CHAIN_ROLES[output.role].title ? `the ${output.label}` : output.label;
      return `${owner}'s ${CHAIN_ROLES[output.role].outputNoun.toLowerCase()}`;
    }),
  );
}

/** The upstream outputs as labelled blocks: `Generator's Response:\n…\n\nVerifier's Critique:\n…`. */
export function upstreamBlock(upstream: readonly UpstreamOutput[]): string {
  return upstream
    .map((output) => `${output.label}'s ${CHAIN_ROLES[output.role].outputNoun}:\n${output.text}`)
    .join('\n\n');
}

/** `Next Action: <name>` when the task names its final action, else undefined (free-text tasks). */
export function nextActionLine(prompt: TaskPrompt): string | undefined {
  const name = prompt.outputContract?.finalActionName;
  return name ? `Next Action: ${name}` : undefined;
}

/**
 * A role's system line: names the role (`the Verifier`, or `Verifier 2` when repeated) within a
 * helpful, or helpful and privacy-conscious, multi-agent system, then the role statement.
 * In privacy-enhanced mode a template's `privacy_statement` replaces its `statement`.
 */
export function roleSystemLine({
  topology,
  member,
  upstream,
  privacyMode = 'naive',
  template,
}: {
  topology: Topology;
  member: StageMember;
  upstream: readonly UpstreamOutput[];
  privacyMode?: TaskPrompt['privacyMode'];
  template: RoleTemplate;
}): string {
  const enhanced = privacyMode === 'privacy-enhanced';
  const statement = (enhanced ? (template.privacyStatement ?? template.statement) : template.statement) ?? '';
  const title = CHAIN_ROLES[member.role].title;
  return CHAIN_SYSTEM_LINE_TEMPLATE.render(CHAIN_SYSTEM_LINE_TEMPLATE.body, {
    role_label: member.ordinal === null ? `the ${title}` : member.label,
    system_quality: SYSTEM_QUALITY[enhanced ? 'privacy-enhanced' : 'naive'],
    roles: rolesPhrase(topology),
    role_statement: template.render(statement, { upstream: upstreamPhrase(upstream) }),
  }).trim();
}

function blocks(parts: ReadonlyArray<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined && part.trim() !== '').join('\n\n');
}

/**
 * The instruction slot of an actor stage (G, R, X): the labelled upstream outputs, the
 * `Next Action` line and the response-format block when the task has them, the role's own
 * instruction, then the task's original instruction (so a free-text task still ends with its cue).
 */
export function actorInstruction({
  prompt,
  upstream,
  roleInstruction,
}: {
  prompt: TaskPrompt;
  upstream: readonly UpstreamOutput[];
  roleInstruction: string;
}): string {
  return blocks([
    upstreamBlock(upstream),
    nextActionLine(prompt),
    prompt.outputContract?.formatBlock,
    roleInstruction,
    prompt.instruction,
  ]);
}

/**
 * The instruction slot of a critic or analyst stage (V, C, E): the labelled upstream outputs
 * and the role's own instruction, with no Next Action line and no format block (`privact.md` §3).
 * For a free-text task (no final action) the task's instruction is the question itself, not an
 * output directive, so it is shown first as `Task:`; a final-action task's instruction is an
 * output directive and is left out, which reduces to §3's verifier tail.
 */
export function criticInstruction({
  prompt,
  upstream,
  roleInstruction,
}: {
  prompt: TaskPrompt;
  upstream: readonly UpstreamOutput[];
  roleInstruction: string;
}): string {
  const freeText = prompt.outputContract?.finalActionName === undefined;
  return blocks([freeText ? `Task:\n${prompt.instruction}` : undefined, upstreamBlock(upstream), roleInstruction]);
}

/**
 * The default stage prompt of a chain (`privact.md` §3, generalised): the task prompt rendered
 * by the suite with the role's system line and an actor or critic instruction, so every stage
 * keeps the suite's layout and sees the case context. `templates` replaces the default role
 * templates for some roles (e.g. the 1-2-3 check's executor).
 */
export function createStagePromptBuilder({
  templates = {},
}: {
  templates?: Partial<Record<ChainRole, RoleTemplate>>;
} = {}): StagePromptBuilder {
  return ({ prompt, topology, member, upstream }) => {
    const template = templates[member.role] ?? CHAIN_ROLE_TEMPLATES[member.role];
    const roleInstruction = template.render(template.body, { upstream: upstreamPhrase(upstream) });
    const instruction =
      CHAIN_ROLES[member.role].kind === 'actor'
        ? actorInstruction({ prompt, upstream, roleInstruction })
        : criticInstruction({ prompt, upstream, roleInstruction });
    const systemLine = roleSystemLine({ topology, member, upstream, privacyMode: prompt.privacyMode, template });
    return prompt.render({ systemLine, instruction });
  };
}

/** The stage prompt builder of `chain:<topology>` with the default role templates. */
export const chainStagePrompt: StagePromptBuilder = createStagePromptBuilder();
