import { describe, expect, it } from 'vitest';
import { upstreamDataLine } from './upstream-data-reporter.js';

describe('upstreamDataLine', () => {
  it('names the skipped count per dataset, the reason and the command that runs them', () => {
    const line = upstreamDataLine({
      dataDir: '/d',
      tally: {
        total: 12,
        skipped: 5,
        skippedByDataset: new Map([
          ['confaide', 4],
          ['privacylens (lacks privact_split.json)', 1],
        ]),
      },
    });
    expect(line).toBe(
      'upstream data: 5 of 12 data-dependent tests skipped (confaide 4, privacylens (lacks privact_split.json) 1; ' +
        'looked in /d); run them with `CONFIDANT_TEST_DATA_DIR=<dir holding confaide/, privacylens/, pacbench/> ' +
        'npm test` (docs/data.md)',
    );
    expect(line.includes('\n')).toBe(false);
  });

  it('says all ran when none was skipped, and nothing when no selected test needs data', () => {
    const tally = { total: 3, skipped: 0, skippedByDataset: new Map<string, number>() };
    expect(upstreamDataLine({ dataDir: '/d', tally })).toBe('upstream data: all 3 data-dependent tests ran against /d');
    expect(upstreamDataLine({ dataDir: '/d', tally: { ...tally, total: 0 } })).toBe('');
  });
});
