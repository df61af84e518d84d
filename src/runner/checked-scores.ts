import { z } from 'zod';
import { type Score, scoreSchema } from '../spec/score.js';

const scoresSchema = z.array(scoreSchema);

const VERDICTS: ReadonlySet<unknown> = new Set(['pass', 'fail', 'not-applicable', 'error']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A dense array's items, each read by `item`; `undefined` when it is not an array, has holes or an item fails. */
function itemsOf<T>(value: unknown, item: (value: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: T[] = [];
  for (let index = 0; index < value.length; index += 1) {
    if (!(index in value)) return undefined;
    const read = item(value[index]);
    if (read === undefined) return undefined;
    items.push(read);
  }
  return items;
}

function targetOf(value: unknown): Record<string, string | number> | undefined {
  if (!isPlainObject(value)) return undefined;
  const target: Record<string, string | number> = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (typeof field !== 'string' && !isFiniteNumber(field)) return undefined;
    target[key] = field;
  }
  return target;
}

function evidenceOf(value: unknown): { eventId: string; quote: string } | undefined {
  if (!isPlainObject(value) || typeof value.eventId !== 'string' || typeof value.quote !== 'string') return undefined;
  return { eventId: value.eventId, quote: value.quote };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * What `scoreSchema` parses a plain score object into (a copy, fields in the schema's order,
 * unknown ones dropped), or `undefined` for anything it might treat otherwise: a text target
 * (read as a legacy one), a member present but `undefined`, a non-plain object, or an invalid
 * field. Those go through zod itself, which then decides (and words the error).
 */
function plainScore(value: unknown): Score | undefined {
  if (!isPlainObject(value)) return undefined;
  const { scorer, target, verdict, value: number, label, explanation, evidence, judgeCalls } = value;
  if (typeof scorer !== 'string' || !VERDICTS.has(verdict) || (number !== null && !isFiniteNumber(number))) {
    return undefined;
  }
  // Rebuilt in the schema's key order (scorer, target, verdict, value, label, …), as zod writes it.
  const ordered: Record<string, unknown> = { scorer };
  if (Object.hasOwn(value, 'target')) {
    const read = targetOf(target);
    if (read === undefined) return undefined;
    ordered.target = read;
  }
  ordered.verdict = verdict;
  ordered.value = number;
  if (Object.hasOwn(value, 'label')) {
    if (typeof label !== 'string') return undefined;
    ordered.label = label;
  }
  if (Object.hasOwn(value, 'explanation')) {
    if (typeof explanation !== 'string') return undefined;
    ordered.explanation = explanation;
  }
  if (Object.hasOwn(value, 'evidence')) {
    const read = itemsOf(evidence, evidenceOf);
    if (read === undefined) return undefined;
    ordered.evidence = read;
  }
  if (Object.hasOwn(value, 'judgeCalls')) {
    const read = itemsOf(judgeCalls, textOf);
    if (read === undefined) return undefined;
    ordered.judgeCalls = read;
  }
  return ordered as Score;
}

/**
 * The scores a suite's scorers returned, checked against the run format (suite code may be the
 * user's): a malformed score fails the sample with a `TypeError` naming the scorer and field,
 * instead of an unreadable record. The common shape is checked by hand (the same result as the
 * schema, at a fraction of the cost per sample); anything else goes through `scoreSchema`.
 */
export function checkedScores(scores: Score[]): Score[] {
  const fast = itemsOf(scores, plainScore);
  if (fast !== undefined) return fast;
  const parsed = scoresSchema.safeParse(scores);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const [index, ...path] = issue?.path ?? [];
  const scorer = typeof index === 'number' ? (scores[index] as { scorer?: unknown } | undefined)?.scorer : undefined;
  throw new TypeError(
    `scorer ${typeof scorer === 'string' ? `'${scorer}' ` : ''}returned an invalid score: ${issue?.message ?? 'invalid'}${path.length > 0 ? ` at ${path.join('.')}` : ''}`,
  );
}
