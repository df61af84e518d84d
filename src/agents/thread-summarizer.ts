import type { BoundModel } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';
import type { ThreadCompactor } from './tool-calling-agent.js';

/** Rough token count of a thread: one token per 4 characters of content and tool input. */
export function estimateThreadTokens(thread: readonly Message[]): number {
  let characters = 0;
  for (const message of thread) {
    characters += message.content.length;
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      characters += JSON.stringify(message.toolCalls).length;
    }
  }
  return Math.ceil(characters / 4);
}

const SUMMARY_SYSTEM =
  'You condense the earlier part of a collaboration transcript for the participant who took part in it. ' +
  'Keep every fact, figure, name, file path, agreement and open question that later turns may need, ' +
  'and what each side has already shared or written. Write plain prose or short bullets; add nothing new.';

/** Renders messages as plain text for the summariser. */
function transcriptText(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      if (message.role === 'tool') return `[tool result ${message.toolName}] ${message.content}`;
      if (message.role === 'assistant') {
        const calls = (message.toolCalls ?? []).map((call) => `[tool call ${call.name}] ${JSON.stringify(call.input)}`);
        return [`[you] ${message.content}`, ...calls].join('\n');
      }
      return `[${message.role}] ${message.content}`;
    })
    .join('\n\n');
}

/** Prefix of the message that replaces the condensed history. */
export const SUMMARY_PREFIX = 'Summary of the earlier conversation (older messages were condensed):';

/**
 * Thread summarisation (pacbench.md §4 step 5): when the thread's input size exceeds
 * `atTokens` — the provider-reported input tokens of the previous call, or characters / 4 when
 * none were reported — the older messages are replaced by one summary written by `model`,
 * keeping the most recent messages that fit in `keepTokens` (characters / 4). The system
 * message always stays; the kept part never starts with a tool result (whose call would be
 * gone). When nothing older can be condensed the thread is returned unchanged.
 */
export function createThreadSummarizer({
  model,
  atTokens,
  keepTokens,
}: {
  model: BoundModel;
  atTokens: number;
  keepTokens: number;
}): ThreadCompactor {
  return async ({ thread, lastInputTokens, signal }) => {
    const size = lastInputTokens ?? estimateThreadTokens(thread);
    if (size <= atTokens) return thread;
    const head = thread[0]?.role === 'system' ? thread.slice(0, 1) : [];
    const rest = thread.slice(head.length);
    let start = rest.length;
    let kept = 0;
    while (start > 0) {
      const cost = estimateThreadTokens([rest[start - 1]!]);
      if (kept + cost > keepTokens) break;
      kept += cost;
      start -= 1;
    }
    while (start < rest.length && rest[start]?.role === 'tool') start += 1;
    const older = rest.slice(0, start);
    if (older.length === 0) return thread;
    const result = await model.generate({
      messages: [
        { role: 'system', content: SUMMARY_SYSTEM },
        { role: 'user', content: transcriptText(older) },
      ],
      settings: {},
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    const summary: Message = { role: 'user', content: `${SUMMARY_PREFIX}\n${result.text.trim()}` };
    return [...head, summary, ...rest.slice(start)];
  };
}
