import type { PacNumberCheck } from '../outcome-check-schema.js';
import { readJsonPath } from '../read-json-path.js';
import {
  checkResult,
  type DeliverableInput,
  deliverableJson,
  deliverableText,
  missingResult,
  type OutcomeCheckResult,
} from './check-deliverable.js';

/**
 * A number as deliverables write it: a JSON number, or text such as `12,500`, `€ 12 500.50` or
 * `-3.5` (currency signs, spaces, `_` and thousands commas dropped). Undefined when it is not one.
 */
export function readNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[\s_,]|\p{Sc}/gu, '');
  return /^[-+]?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : undefined;
}

/**
 * A `number` outcome check. The number is read at `path` of the JSON `file`, or by `pattern`
 * (case-insensitive; the first capture group, else the whole match) in `file` (its last match)
 * or, without `file`, in the transcript (the last match in the latest message that has one: the
 * figure the parties ended on). It passes when `min ≤ value ≤ max`. A missing file, path or match
 * follows `ifMissing`; something found that is not a number is a fail.
 */
export function runNumberCheck({
  check,
  files,
  messages,
}: DeliverableInput & { check: PacNumberCheck }): OutcomeCheckResult {
  const found = locate({ check, files, messages });
  if ('result' in found) return found.result;
  const value = readNumber(found.raw);
  if (value === undefined) {
    return checkResult(check, 'fail', `${found.where} holds ${JSON.stringify(found.raw)}, which is not a number`);
  }
  const range = `[${check.min ?? '-∞'}, ${check.max ?? '∞'}]`;
  const inside = (check.min === undefined || value >= check.min) && (check.max === undefined || value <= check.max);
  return checkResult(
    check,
    inside ? 'pass' : 'fail',
    `${found.where} is ${value}, ${inside ? 'inside' : 'outside'} ${range}`,
    value,
  );
}

function locate({
  check,
  files,
  messages,
}: DeliverableInput & { check: PacNumberCheck }): { raw: unknown; where: string } | { result: OutcomeCheckResult } {
  if (check.path !== undefined && check.file !== undefined) {
    const read = deliverableJson({ check, file: check.file, files });
    if (!read.ok) return { result: read.result };
    const at = readJsonPath({ document: read.document, path: check.path });
    if (!at.found) return { result: missingResult(check, `${read.path} has no ${at.missing}`) };
    return { raw: at.value, where: `${read.path} ${check.path}` };
  }
  const pattern = new RegExp(check.pattern ?? '', 'giu');
  if (check.file !== undefined) {
    const read = deliverableText({ check, file: check.file, files });
    if (!read.ok) return { result: read.result };
    const last = lastMatch(pattern, read.text);
    if (last === undefined) return { result: missingResult(check, `/${check.pattern}/ does not match ${read.path}`) };
    return { raw: last, where: `${read.path} ("${last}")` };
  }
  const latest = [...messages].sort((left, right) => right.turn - left.turn);
  for (const message of latest) {
    const last = lastMatch(pattern, message.text);
    if (last !== undefined) return { raw: last, where: `turn ${message.turn} ("${last}")` };
  }
  return { result: missingResult(check, `/${check.pattern}/ matches no message`) };
}

/** The first capture group (else the whole match) of the last match of `pattern` in `text`. */
function lastMatch(pattern: RegExp, text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) last = match[1] ?? match[0];
  return last;
}
