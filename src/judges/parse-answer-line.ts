import { DEFAULT_ANSWER_MARKER, matchAnswerMarker, splitLines } from './answer-marker.js';
import type { JudgeTemplate } from './judge-template.js';

/** What the answer-line protocol reads from a judge's reply. */
export type AnswerLine = {
  /** The answer text: the rest of the last marker line (or the next non-empty line if that is empty). */
  answer: string;
  /** The matched label, spelled as declared, when the template declares labels. */
  label?: string;
  /** Everything before the last marker line, trimmed (the judge's reasoning). */
  reasoning: string;
};

const LEADING_QUOTES = /^[\s"'“”‘’«»[\](){}*_`]+/;

/**
 * Reads an answer-line reply: finds the LAST line that starts with `marker` (see
 * `matchAnswerMarker`), takes the rest of that line, or the next non-empty line when the
 * marker stands alone, and, when `labels` are given, matches the start of that answer
 * against them (case-insensitive, whole word; the longest matching label wins, so `No`
 * does not match `Not sure`, and `2` does not match `2.5`).
 *
 * The last marker wins so that a judge which quotes the judged text (or restates the
 * question) before its own verdict is read by its verdict. Returns `null` when there is no
 * marker line, the answer is empty, or no label matches.
 */
export function parseAnswerLine({
  text,
  marker = DEFAULT_ANSWER_MARKER,
  labels,
}: {
  text: string;
  marker?: string;
  labels?: readonly string[];
}): AnswerLine | null {
  const lines = splitLines(text);
  let markerIndex = -1;
  let rest = '';
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const found = matchAnswerMarker({ line: lines[index] ?? '', marker });
    if (found !== null) {
      markerIndex = index;
      rest = found;
      break;
    }
  }
  if (markerIndex === -1) return null;

  let answer = rest;
  if (answer === '') {
    const next = lines.slice(markerIndex + 1).find((line) => line.trim() !== '');
    answer = (next ?? '').replace(/^[\s*_`]+|[\s*_`]+$/g, '');
  }
  if (answer === '') return null;

  const reasoning = lines.slice(0, markerIndex).join('\n').trim();
  if (labels === undefined) return { answer, reasoning };
  const label = matchLabel({ answer, labels });
  return label === undefined ? null : { answer, label, reasoning };
}

/**
 * The answer-line parser a template describes (its `answerPattern` and `labels`), ready to
 * use as a `JudgeDefinition`'s `parseAnswer`.
 */
export function answerLineParser(
  template: Pick<JudgeTemplate, 'answerPattern' | 'labels'>,
): (text: string) => AnswerLine | null {
  const marker = template.answerPattern ?? DEFAULT_ANSWER_MARKER;
  const labels = template.labels;
  return (text) => parseAnswerLine({ text, marker, ...(labels === undefined ? {} : { labels }) });
}

function matchLabel({ answer, labels }: { answer: string; labels: readonly string[] }): string | undefined {
  const plain = answer.replace(LEADING_QUOTES, '');
  let best: string | undefined;
  for (const label of labels) {
    const wanted = label.trim();
    if (wanted === '' || plain.slice(0, wanted.length).toLowerCase() !== wanted.toLowerCase()) continue;
    const after = plain.slice(wanted.length);
    const continuesWord = /^[\p{L}\p{N}]/u.test(after);
    const continuesNumber = /[\p{N}]$/u.test(wanted) && /^[.,]\p{N}/u.test(after);
    if (continuesWord || continuesNumber) continue;
    if (best === undefined || wanted.length > best.trim().length) best = label;
  }
  return best;
}
