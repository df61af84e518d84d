import { sha256Hex } from '../datasets/checksum.js';
import { canonicalJson } from '../models/response-cache-key.js';
import { planIdentity, type RunPlan } from '../spec/run-plan.js';

// One canonical JSON and one SHA-256 serve the cache keys, dataset hashes and plan hashes alike.
export { canonicalJson, sha256Hex };

/**
 * The plan hash stored in the header: SHA-256 hex of the canonical JSON of `planIdentity(plan)`.
 * Shards, concurrency, cache and budget settings do not change it, so shards of one run merge.
 */
export function planHash(plan: RunPlan): string {
  return sha256Hex(canonicalJson(planIdentity(plan)));
}
