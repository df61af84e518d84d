import { z } from 'zod';

/**
 * What a score is about within its sample, as named fields: `{ agent: 'agent_a', channel:
 * 'messages' }`, `{ node: 'r.0.1', item: 2 }`, `{ name: 'case' }`. Readers match on fields
 * ({@link scoreTargetMatches}); nothing parses a string back. `name` is the field of a target
 * that is just a name (a metric component, `run`, `persona`).
 */
export type ScoreTarget = Record<string, string | number>;

const FIELD_VALUE = z.union([z.string(), z.number()]);
const structuredTargetSchema = z.record(z.string(), FIELD_VALUE);
const INTEGER = /^(?:0|[1-9][0-9]*)$/;
/** The fields new records write as numbers; any other field of an old text target stays text (`agent:7` is agent `'7'`). */
const NUMERIC_FIELDS: ReadonlySet<string> = new Set(['item', 'turn', 'call', 'requirement', 'policy', 'round']);

const fieldValue = (key: string, text: string): string | number =>
  NUMERIC_FIELDS.has(key) && INTEGER.test(text) ? Number(text) : text;

/** `a:b/c` → `{ a: 'b', name: 'c' }`: the generic text grammar, each part `key:value` or a bare name. */
function partsOf(text: string): ScoreTarget {
  const target: ScoreTarget = {};
  for (const part of text.split('/')) {
    const colon = part.indexOf(':');
    if (colon === -1) target.name = part;
    else {
      const key = part.slice(0, colon);
      target[key] = fieldValue(key, part.slice(colon + 1));
    }
  }
  return target;
}

const LEGACY_FORMS: { pattern: RegExp; read: (match: RegExpExecArray) => ScoreTarget }[] = [
  // PrivAct trees: a node id, or `<leaf>#item-<i>` for one sensitive item judged on a leaf.
  { pattern: /^(r(?:\.[0-9]+)*)#item-([0-9]+)$/, read: (m) => ({ node: m[1] ?? '', item: Number(m[2]) }) },
  { pattern: /^(r(?:\.[0-9]+)*)$/, read: (m) => ({ node: m[1] ?? '' }) },
  // PrivacyLens: `item-<i>`, sensitive item i.
  { pattern: /^item-([0-9]+)$/, read: (m) => ({ item: Number(m[1]) }) },
  // PrivacyBench: `early-stop:round-<n>`.
  { pattern: /^early-stop:round-([0-9]+)$/, read: (m) => ({ name: 'early-stop', round: Number(m[1]) }) },
  // PrivacyBench calibration: the detector id (`agent`, `judge:<i>:<provider>:<model>`).
  { pattern: /^(agent|judge:[0-9]+:.+)$/, read: (m) => ({ detector: m[1] ?? '' }) },
];

/**
 * Scorers whose old text target was a bare value of one field: PrivacyBench's per-conversation
 * labels named the target secret by its id alone (`maya-anxiety`), which now reads `{ secret }`.
 */
const LEGACY_BARE_FIELD: readonly { scorer: RegExp; field: string }[] = [
  { scorer: /^privacybench-(?:leak|withholding|canary)@/, field: 'secret' },
];

/**
 * The structured form of a text target written by format-1 records before targets were
 * structured (`agent:a/channel:messages`, `item-2`, `r.0.1#item-0`, `case`), so old run
 * directories read, report, compare and resume with the same fields new records carry. `scorer`
 * (the score's own) tells the few scorers whose text was a bare id apart.
 */
export function readLegacyScoreTarget(text: string, scorer?: string): ScoreTarget {
  const bare = scorer === undefined ? undefined : LEGACY_BARE_FIELD.find((form) => form.scorer.test(scorer));
  if (bare !== undefined) return { [bare.field]: text };
  for (const form of LEGACY_FORMS) {
    const match = form.pattern.exec(text);
    if (match !== null) return form.read(match);
  }
  return partsOf(text);
}

/** A score target as stored (the structured form; old text targets are read by the score schema). */
export const scoreTargetSchema = structuredTargetSchema;

/**
 * A stored score as the score schema reads it: a text `target` of an older record becomes its
 * structured form ({@link readLegacyScoreTarget}, told the score's scorer); anything else is as is.
 */
export function withStructuredTarget(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('target' in value) || typeof value.target !== 'string')
    return value;
  const scorer = 'scorer' in value && typeof value.scorer === 'string' ? value.scorer : undefined;
  return { ...value, target: readLegacyScoreTarget(value.target, scorer) };
}

/**
 * The text of a target for people and report columns: fields in order, `key:value` joined by
 * `/`, the `name` field bare (`agent:agent_a/first-violation`, `item:2`, `case`).
 */
export function formatScoreTarget(target: ScoreTarget): string {
  return Object.entries(target)
    .map(([key, value]) => (key === 'name' ? String(value) : `${key}:${value}`))
    .join('/');
}

/** Whether `target` has every field of `query` with the same value (`{}` matches any target). */
export function scoreTargetMatches(target: ScoreTarget | undefined, query: ScoreTarget): boolean {
  // Own-key loops rather than `Object.entries`: metrics compare targets for every record of every
  // bootstrap resample, and the arrays were most of the summary's garbage.
  for (const key in query) {
    if (Object.hasOwn(query, key) && target?.[key] !== query[key]) return false;
  }
  return true;
}

/** The number of own enumerable string keys (what `Object.keys(target).length` counts). */
function fieldCount(target: ScoreTarget): number {
  let count = 0;
  for (const key in target) if (Object.hasOwn(target, key)) count += 1;
  return count;
}

/** Whether two targets have exactly the same fields and values (both absent counts as equal). */
export function sameScoreTarget(a: ScoreTarget | undefined, b: ScoreTarget | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return fieldCount(a) === fieldCount(b) && scoreTargetMatches(a, b);
}
