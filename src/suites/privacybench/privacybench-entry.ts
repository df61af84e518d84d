import type { SuiteEntry } from '../suite-entry.js';

const COMMUNITY = {
  flag: '--community',
  key: 'community',
  description: 'community directory (community.json + documents.jsonl), or starter (default, committed)',
};

/** PrivacyBench's registry entry: id and flags without loading the suite. */
export const privacybenchEntry: SuiteEntry = {
  id: 'privacybench',
  flags: [
    COMMUNITY,
    {
      flag: '--strategy',
      key: 'strategies',
      description: 'probing strategies to run: direct, indirect or both (default)',
    },
  ],
  load: async () => (await import('./suite.js')).privacybenchSuite,
};

/** PrivacyBench's secret-detection calibration suite's registry entry. */
export const privacybenchCalibrationEntry: SuiteEntry = {
  id: 'privacybench-calibration',
  flags: [COMMUNITY],
  load: async () => (await import('./calibration/calibration-suite.js')).privacybenchCalibrationSuite,
};
