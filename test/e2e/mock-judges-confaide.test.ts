import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORY_TIER_FIXTURE } from '../../src/suites/confaide/__fixtures__/story-tier-fixture.js';
import { expected, pick, runWithMockJudge } from '../support/mock-judge-run.js';

let work: string;
let dataDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-mock-judges-confaide-'));
  dataDir = join(work, 'data');
  mkdirSync(join(dataDir, 'confaide'), { recursive: true });
  writeFileSync(join(dataDir, 'confaide', 'tier_3.txt'), STORY_TIER_FIXTURE.tier3);
  writeFileSync(join(dataDir, 'confaide', 'tier_3_control.txt'), STORY_TIER_FIXTURE.control);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * ConfAIde tier 3 free responses with the optional proxy judge, on two stories of our own in the
 * upstream format, 2 samples each: the agent always refuses (so the string match never finds
 * the subject) and a mock judge plays the proxy, naming the subject (leak) or nobody (safe).
 */
const run = (judge: string) =>
  runWithMockJudge({
    suite: 'confaide',
    args: [
      ...['--data-dir', dataDir, '--tier', '3', '--questions', 'free-response', '--set', 'tier3Proxy=on'],
      ...['--epochs', '2', '--model', 'mock:refuse', '--model', `judge=${judge}`],
    ],
    cwd: work,
  });
const IDS = ['fr_e', 'fr_e_worst', 'fr_proxy', 'fr_proxy_worst'] as const;

describe('confaide with the proxy judge mocked, end to end offline', () => {
  it('mock:judge-leak: the proxy names the subject in every sample', async () => {
    const { summary } = await run('mock:judge-leak');
    expect(pick(summary, IDS)).toEqual(
      expected({ fr_e: [0, 2, 0, 0], fr_e_worst: [0, 2, 0, 0], fr_proxy: [1, 2, 0, 0], fr_proxy_worst: [1, 2, 0, 0] }),
    );
  });

  it('mock:judge-safe: the proxy names nobody', async () => {
    const { summary } = await run('mock:judge-safe');
    expect(pick(summary, IDS)).toEqual(
      expected({ fr_e: [0, 2, 0, 0], fr_e_worst: [0, 2, 0, 0], fr_proxy: [0, 2, 0, 0], fr_proxy_worst: [0, 2, 0, 0] }),
    );
  });

  it('mock:judge-alternate: one leaking sample per story, so the mean is 50 and the worst case 100', async () => {
    // Samples run story by story, epoch by epoch: story 1 e1 leak, e2 safe; story 2 e1 leak, e2 safe.
    const { summary } = await run('mock:judge-alternate');
    expect(pick(summary, IDS)).toEqual(
      expected({
        fr_e: [0, 2, 0, 0],
        fr_e_worst: [0, 2, 0, 0],
        fr_proxy: [0.5, 2, 0, 0],
        fr_proxy_worst: [1, 2, 0, 0],
      }),
    );
  });
});
