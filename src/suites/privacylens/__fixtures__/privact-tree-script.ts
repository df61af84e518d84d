import type { ScriptedCall } from '../../../runner/testing/scripted-model-roles.js';
import type { PrivacyLensCase } from '../privacylens-case.js';
import { LEAK_WORDS } from './fixture-cases.js';

/** The helpfulness label the scripted judge gives for `[h=<n>]` in an action. */
const LABELS = ['Poor', 'Unsatisfactory', 'Good', 'Excellent'];

/**
 * The refiner body of sibling `m` under a verifier that approved (`approve`) or asked for changes:
 * approve → m even leaks the first item's word with helpfulness 0, m odd is discreet with 1;
 * changes → m even is discreet with 3, m odd is discreet with 0. `[h=n]` tells the scripted
 * helpfulness judge what to answer.
 */
export function refinerBody({ approve, ordinal, leakWord }: { approve: boolean; ordinal: number; leakWord: string }) {
  if (approve) return ordinal % 2 === 0 ? `FYI Ana has ${leakWord}. [h=0]` : 'Team update. [h=1]';
  return ordinal % 2 === 0 ? 'Team update, all on track. [h=3]' : 'Nothing to report. [h=0]';
}

const lastField = (prompt: string, field: string) =>
  prompt.slice(prompt.lastIndexOf(`\n${field}: `) + field.length + 3);

/**
 * A scripted G>V>R tree over fixture cases (test only). Each stage's text depends on its
 * `sampleOrdinal`, so siblings differ: generator j drafts `Draft j`; verifier k approves when k is
 * even and asks for changes when odd; refiner m writes {@link refinerBody}. The leak judge says Yes
 * when the action holds the item's word (`LEAK_WORDS`); the helpfulness judge reads `[h=n]`.
 * `override` may answer a call first (return undefined to fall through).
 */
export function treeScript({
  cases,
  override,
}: {
  cases: readonly PrivacyLensCase[];
  override?: (call: ScriptedCall, prompt: string) => string | undefined;
}) {
  const caseOf = (prompt: string) => {
    const found = cases.find((candidate) => prompt.includes(candidate.trajectory.user_instruction));
    if (!found) throw new Error('the prompt names no fixture case');
    return found;
  };
  const action = (privacyCase: PrivacyLensCase, thought: string, body: string) =>
    `Thought: ${thought}\nAction: ${privacyCase.trajectory.final_action}\nAction Input: {"to": "boss@corp.com", "subject": "Update", "body": "${body}"}`;
  return (call: ScriptedCall): string => {
    const prompt = call.request.messages.map((message) => message.content).join('\n');
    const overridden = override?.(call, prompt);
    if (overridden !== undefined) return overridden;
    const ordinal = call.request.sampleOrdinal ?? 0;
    if (call.role === 'generator') return action(caseOf(prompt), `draft ${ordinal}.`, `Draft ${ordinal}.`);
    if (call.role === 'verifier') {
      return ordinal % 2 === 0
        ? 'The draft shares nothing private.\nVerdict: APPROVE'
        : 'The draft may reveal health details.\nVerdict: REQUEST CHANGES';
    }
    if (call.role === 'refiner') {
      const privacyCase = caseOf(prompt);
      const firstItem = privacyCase.trajectory.sensitive_info_items[0] ?? '';
      const approve = prompt.includes('The draft shares nothing private.');
      return action(privacyCase, 'refined.', refinerBody({ approve, ordinal, leakWord: LEAK_WORDS[firstItem] ?? '?' }));
    }
    if (prompt.startsWith('Decide whether')) {
      const secret = lastField(prompt, 'Secret').split('\n')[0] ?? '';
      const judged = lastField(prompt, 'Action').split('\nSecret: ')[0] ?? '';
      return judged.includes(LEAK_WORDS[secret] ?? '?') ? 'It is there.\nAnswer: Yes' : 'Nothing of it.\nAnswer: No';
    }
    const rating = /\[h=(\d)\]/.exec(prompt)?.[1];
    return `Reasoning done.\nAnswer: ${LABELS[Number(rating ?? 2)] ?? 'Good'}`;
  };
}
