import { fileURLToPath } from 'node:url';
import { type LoadedCommunity, loadCommunity } from './load-community.js';

/**
 * The committed starter community directory (`starter/community.json` + `starter/documents.jsonl`),
 * built by `buildStarterCommunity` with `STARTER_SEED` (build-starter-community.ts); the suite runs on it by default.
 */
export const STARTER_COMMUNITY_DIR = fileURLToPath(new URL('./starter/', import.meta.url));

/** Loads and validates the committed starter community. */
export function loadStarterCommunity(): Promise<LoadedCommunity> {
  return loadCommunity({ dir: STARTER_COMMUNITY_DIR });
}
