import { PAC_SCORERS } from '../outcome-scores.js';

/**
 * The scorer names the PAC judges write. `task`, `privacy` and `grounding` use the bases the
 * PAC metrics read by default (`PAC_SCORERS`), whatever the mode, so `pacMetrics` reads them
 * unchanged; the mode is named in each explanation and in the run header's judges.
 * - `privacyItem`: per-item detail (keyword hits and LLM judgments), with evidence quotes;
 * - `keyword`: the deterministic keyword check over the original keywords, written beside every
 *   privacy mode for comparison (§7.2 `pac-keyword`), with the same targets as `privacy`;
 * - `keywordExpansion`: keyword-awareness only, per agent: `pass` when every policy's expansion
 *   parsed, else `fail` with value = the failed expansion judgments;
 * - `check`: the deterministic outcome checks of scenarios that declare them (`run` and `check:<id>`);
 * - `privacyGraded`: the graded privacy score per agent (`agent:<id>`, value in [0, 1]), written
 *   only by the judges that tell a hint from a full reveal (keyword-awareness with
 *   judgeParse=strict; graded-privacy.ts).
 */
export const PAC_JUDGE_SCORERS = {
  task: `${PAC_SCORERS.task}@1`,
  privacy: `${PAC_SCORERS.privacy}@1`,
  grounding: `${PAC_SCORERS.grounding}@1`,
  privacyItem: 'pac-privacy-item@1',
  keyword: 'pac-keyword@1',
  keywordExpansion: 'pac-keyword-expansion@1',
  check: `${PAC_SCORERS.check}@1`,
  privacyGraded: `${PAC_SCORERS.graded}@1`,
} as const;
