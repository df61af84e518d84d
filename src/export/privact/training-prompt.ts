import type { ChainNode, ChainTree } from '../../orchestration/role-chain.js';
import { CHAIN_ROLES, type ChainRole } from '../../orchestration/topology.js';
import { StoreFormatError } from '../../spec/errors.js';
import type { Message } from '../../spec/message.js';

/**
 * Which prompt a preference pair carries (privact.md §8.3):
 * - `inference` (default): the exact rendered prompt the pair's nodes were sampled from, as stored
 *   in `ChainTree.prompts`; the trained model sees the same prompt when deployed in the chain;
 * - `upstream`: PrivAct's training construction, rebuilt in our words: the first stage's prompt
 *   (the generator prompt, with its system line and format block) followed by a short role section.
 */
export const PROMPT_STYLES = ['inference', 'upstream'] as const;
/** One of {@link PROMPT_STYLES}. */
export type PromptStyle = (typeof PROMPT_STYLES)[number];

/** The role's own instruction in the upstream-style section, by role (our wording). */
const UPSTREAM_INSTRUCTIONS: Readonly<Record<ChainRole, string>> = {
  generator: 'Write the NEXT [Action] and [Action Input] as your response, starting with [Thought].',
  verifier:
    "Read the Generator's response above. Critique it for privacy and for how well it follows the user's " +
    'instruction, list any possible privacy issues, and end with a short verdict.',
  refiner:
    "Combine the Generator's response with the Verifier's critique: fix the issues that were raised, keep " +
    'private information from anyone who should not receive it, and write the improved NEXT [Action] and ' +
    '[Action Input] as the final output. Briefly explain what you changed.',
  extractor:
    'List the facts, events and details from the user instruction and the past trajectory that matter for this task.',
  checker:
    'For each item listed above, say whether it is fine to share with the recipient or should stay private, and why.',
  executor:
    'Using only the information marked as fine to share, write the NEXT [Action] and [Action Input] as the final output.',
};

/** The role facts of a stage node (a path never holds the root). */
function roleInfo(node: ChainNode) {
  if (node.role === 'root') throw new StoreFormatError(`node ${node.nodeId}: the root has no role output`);
  return CHAIN_ROLES[node.role];
}
const heading = (node: ChainNode) => `## ${roleInfo(node).title.toUpperCase()}`;
const label = (node: ChainNode) => `${roleInfo(node).title}'s ${roleInfo(node).outputNoun}`;

/**
 * The upstream-style section appended to the first stage's prompt for a node of `role` whose
 * ancestors (first stage first, root excluded) are `history`:
 * - a critic or analyst (e.g. the verifier) gets one `## <ROLE>` section per earlier output, then
 *   its own `## <ROLE>` heading and instruction: for G>V>R, `## GENERATOR` + G, `## VERIFIER` + …;
 * - an actor (e.g. the refiner) gets its own heading, the earlier outputs as the collaborative
 *   history, then its instruction: for G>V>R, `## REFINER` + G's response and V's critique + ….
 */
export function upstreamSection({ role, history }: { role: ChainRole; history: readonly ChainNode[] }): string {
  const own = `## ${CHAIN_ROLES[role].title.toUpperCase()}`;
  const instruction = UPSTREAM_INSTRUCTIONS[role];
  if (CHAIN_ROLES[role].kind === 'actor') {
    const reasoning = history.map((node) => `${label(node)}:\n${node.output ?? ''}`).join('\n\n');
    return [own, `Reasoning so far in the multi-agent system:\n\n${reasoning}`, instruction].join('\n\n');
  }
  return [...history.map((node) => `${heading(node)}\n${node.output ?? ''}`), `${own}\n${instruction}`].join('\n\n');
}

/** The messages of a prompt id, or a StoreFormatError naming the sample when the tree lacks it. */
function storedPrompt({ tree, promptId, where }: { tree: ChainTree; promptId: string | null; where: string }) {
  const messages = promptId === null ? undefined : tree.prompts[promptId];
  if (messages === undefined) {
    throw new StoreFormatError(`${where}: the tree has no stored prompt '${promptId ?? 'null'}'`);
  }
  return messages;
}

/**
 * The prompt of a preference pair whose nodes (siblings, of `role`) hang under `parentPath`
 * (the nodes from the first stage down to their parent; empty when the parent is the root).
 * `inference` returns the stored prompt of `promptId`; `upstream` returns the first stage's
 * stored prompt with {@link upstreamSection} appended to its last message (the prompt itself
 * when the pair is at the first stage). `where` names the sample in errors.
 */
export function trainingPrompt({
  tree,
  parentPath,
  role,
  promptId,
  style,
  where,
}: {
  tree: ChainTree;
  parentPath: readonly ChainNode[];
  role: ChainRole;
  promptId: string | null;
  style: PromptStyle;
  where: string;
}): Message[] {
  if (style === 'inference' || parentPath.length === 0) return storedPrompt({ tree, promptId, where });
  const first = parentPath[0];
  const base = storedPrompt({ tree, promptId: first?.promptId ?? null, where });
  const section = upstreamSection({ role, history: parentPath });
  const last = base.at(-1);
  if (last === undefined || (last.role !== 'user' && last.role !== 'system')) {
    throw new StoreFormatError(`${where}: the first stage's prompt does not end with a user message`);
  }
  return [...base.slice(0, -1), { ...last, content: `${last.content}\n\n${section}` }];
}

/** A prompt as plain text (the `trl` and `privact` formats): the message contents joined by a blank line. */
export function promptText(messages: readonly Message[]): string {
  return messages.map((message) => message.content).join('\n\n');
}
