import { loadPacScenarios, type PacBundledSplit, type PacLoadNotice } from './load-scenarios.js';
import type { PacScenario } from './scenario-schema.js';

/**
 * Our project-authored starter scenarios (`starter/`), loaded through the same schema as the
 * paper data. They carry `checks.requirementMarkers` for the deterministic task judge and the
 * reference agents (pacbench.md §8.4), cover both policy types, and include a three-agent
 * collaboration. `confidant demo` and hermetic tests use them; they need no data dir.
 */
export function loadStarterScenarios(
  options: { domains?: readonly string[]; onNotice?: (notice: PacLoadNotice) => void } = {},
): Promise<PacScenario[]> {
  return loadPacScenarios({ dataDir: '', split: 'starter', ...options });
}

/**
 * Our committed N-party starter scenarios (`nparty/`, `--split nparty`): named agents with roles
 * and clearances, a shared setting, direct messages and audience-scoped policies. Kept out of
 * {@link loadStarterScenarios} so the default starter set and `confidant demo` stay as they were.
 */
export function loadNpartyScenarios(
  options: { domains?: readonly string[]; onNotice?: (notice: PacLoadNotice) => void } = {},
): Promise<PacScenario[]> {
  return loadPacScenarios({ dataDir: '', split: 'nparty', ...options });
}

/** The scenarios of one of our committed splits (`starter`, `nparty` or `features`). */
export function loadBuiltInScenarios({
  split,
  ...options
}: {
  split: PacBundledSplit;
  domains?: readonly string[];
  onNotice?: (notice: PacLoadNotice) => void;
}): Promise<PacScenario[]> {
  return loadPacScenarios({ dataDir: '', split, ...options });
}
