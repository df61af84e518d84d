import { createHash } from 'node:crypto';
import { planIdentity, type RunPlan } from '../spec/run-plan.js';

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text.
 * Follows `JSON.stringify` otherwise: `undefined` properties are dropped, `toJSON` is honoured,
 * and `undefined` inside arrays becomes `null`.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const toJSON: unknown = Reflect.get(value, 'toJSON');
  if (typeof toJSON === 'function') return sortKeys(toJSON.call(value));
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item: unknown = Reflect.get(value, key);
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** SHA-256 (hex) of a string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The plan hash stored in the header: SHA-256 hex of the canonical JSON of `planIdentity(plan)`.
 * Shards, concurrency, cache and budget settings do not change it, so shards of one run merge.
 */
export function planHash(plan: RunPlan): string {
  return sha256Hex(canonicalJson(planIdentity(plan)));
}
