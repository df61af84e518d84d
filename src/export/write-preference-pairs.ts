import type { PreferenceRecord } from './privact/preference-records.js';
import { promptText } from './privact/training-prompt.js';

/**
 * Output formats of `confidant export preferences` (privact.md §8.2):
 * - `trl`: TRL's standard preference format, one `{prompt, chosen, rejected}` per line; the prompt
 *   is plain text (a trainer applies the chat template as one user turn, as upstream does);
 * - `chat`: TRL's conversational format: `prompt` as messages, `chosen`/`rejected` as one
 *   assistant message each;
 * - `openai`: OpenAI preference fine-tuning (DPO) lines:
 *   `{input: {messages}, preferred_output: [assistant], non_preferred_output: [assistant]}`;
 * - `privact`: upstream-compatible, one JSON array (indent 2) of `{name, chosen, rejected, prompt}`.
 */
export const PREFERENCE_FORMATS = ['trl', 'chat', 'openai', 'privact'] as const;
/** One of {@link PREFERENCE_FORMATS}. */
export type PreferenceFormat = (typeof PREFERENCE_FORMATS)[number];

/** The file extension of a format: `.json` for the `privact` array, `.jsonl` otherwise. */
export function formatExtension(format: PreferenceFormat): '.json' | '.jsonl' {
  return format === 'privact' ? '.json' : '.jsonl';
}

const assistant = (content: string) => [{ role: 'assistant' as const, content }];
const chatMessages = (record: PreferenceRecord) =>
  record.prompt.map((message) => ({ role: message.role, content: message.content }));

/** One pair in a line-based format, as a JSON value. */
function lineOf(record: PreferenceRecord, format: Exclude<PreferenceFormat, 'privact'>): object {
  switch (format) {
    case 'trl':
      return { prompt: promptText(record.prompt), chosen: record.chosen.output, rejected: record.rejected.output };
    case 'chat':
      return {
        prompt: chatMessages(record),
        chosen: assistant(record.chosen.output),
        rejected: assistant(record.rejected.output),
      };
    case 'openai':
      return {
        input: { messages: chatMessages(record) },
        preferred_output: assistant(record.chosen.output),
        non_preferred_output: assistant(record.rejected.output),
      };
  }
}

/**
 * The text of a pairs file: JSON Lines (one pair per line, each line ending in `\n`; empty for
 * no pairs) for `trl`, `chat` and `openai`, or an indented JSON array for `privact`. Pure.
 */
export function writePreferencePairs({
  records,
  format,
}: {
  records: readonly PreferenceRecord[];
  format: PreferenceFormat;
}): string {
  if (format === 'privact') {
    const entries = records.map((record) => ({
      name: record.caseName,
      chosen: record.chosen.output,
      rejected: record.rejected.output,
      prompt: promptText(record.prompt),
    }));
    return `${JSON.stringify(entries, null, 2)}\n`;
  }
  return records.map((record) => `${JSON.stringify(lineOf(record, format))}\n`).join('');
}

/** One sidecar line (privact.md §8.2), aligned with the pair at the same position in the pairs file. */
export type PreferenceMeta = {
  runId: string;
  sampleId: string;
  caseName: string;
  role: string;
  parentNodeId: string;
  promptId: string;
  chosenNodeId: string;
  rejectedNodeId: string;
  chosenTreeIndex: number[];
  rejectedTreeIndex: number[];
  valueChosen: number;
  valueRejected: number;
  threshold: number;
  lcars: { alpha: number; beta: number; b1: number; b2: number; form: string; noActionReward: string };
  judgeVersions: string[];
  promptMode: string;
};

/** The sidecar record of one pair. */
export function preferenceMeta(record: PreferenceRecord): PreferenceMeta {
  return {
    runId: record.runId,
    sampleId: record.sampleId,
    caseName: record.caseName,
    role: record.role,
    parentNodeId: record.parentNodeId,
    promptId: record.promptId,
    chosenNodeId: record.chosen.nodeId,
    rejectedNodeId: record.rejected.nodeId,
    chosenTreeIndex: record.chosen.treeIndex,
    rejectedTreeIndex: record.rejected.treeIndex,
    valueChosen: record.chosen.value,
    valueRejected: record.rejected.value,
    threshold: record.threshold,
    lcars: { ...record.lcars },
    judgeVersions: record.judgeVersions,
    promptMode: record.promptStyle,
  };
}

/**
 * The text of the `.meta.jsonl` sidecar: line i describes pair i of the pairs file (entry i of
 * the `privact` array), so trainers that reject extra columns still accept the pairs file. Pure.
 */
export function writePreferenceMeta({ records }: { records: readonly PreferenceRecord[] }): string {
  return records.map((record) => `${JSON.stringify(preferenceMeta(record))}\n`).join('');
}
