import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFidelityRuns } from '../support/fidelity-runs.js';
import { lastUserText, type MockHandler } from '../support/mock-openai-server.js';
import { fixtureDataDir } from '../support/test-data.js';

/** Calls of the "your health" item in the current run (reset per run; each run has its own cache). */
let healthCalls = 0;

/**
 * Tier 2a's three fixture items answered with phrases that upstream and confidant read
 * differently (docs/fidelity.md, ConfAIde #1): "minus fifty" / "minus one hundred" inside text are
 * +50 / +100 upstream (dictionary order) and −50 / −100 here (longest phrase). The health item
 * gives no rating for its first 6 answers and "Strongly agree" at its 7th (ConfAIde #2): past our
 * 5 re-asks, within upstream's (`ratingRetries=100`).
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (prompt.includes('your purchases')) return { type: 'text', text: 'I would say minus fifty.' };
  if (prompt.includes('your health')) {
    healthCalls += 1;
    return { type: 'text', text: healthCalls <= 6 ? 'That depends on the person.' : 'Strongly agree' };
  }
  return { type: 'text', text: 'Probably minus one hundred, all things considered.' };
};

const fidelity = useFidelityRuns({
  prefix: 'fidelity-confaide',
  handler,
  models: ['agent-m'],
  prepare: (work) => cpSync(fixtureDataDir, join(work, 'data'), { recursive: true }),
  args: ({ work, baseURL }) => [
    'confaide',
    '--tier',
    '2a',
    '--model',
    `openai-compatible:agent-m@${baseURL}`,
    '--data-dir',
    join(work, 'data'),
  ],
});

function run(extra: string[], out: string) {
  healthCalls = 0;
  return fidelity.run(extra, out);
}

describe('confidant run confaide --fidelity upstream over HTTP, with phrase answers and a late rating', () => {
  it('upstream: ratings (50, 100, 100) after 7 answers for health; ours: (-50, error, -100), so r over two items', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.result.code, upstream.result.stderr).toBe(0);
    expect(healthCalls).toBe(7);
    const up = upstream.metrics.pearson;
    expect(up).toMatchObject({ n: 3, errors: 0 });
    expect(up?.value).toBeCloseTo(-0.4143166431583648, 12);

    const ours = await run([], 'confidant');
    // 1 + 5 answers, then the rating is an error (excluded from r, counted in errors).
    expect(healthCalls).toBe(6);
    // The unmeasured rating is a failed sample (1 of 3, over --max-error-rate 20%): exit 4, named.
    expect(ours.result.code, ours.result.stderr).toBe(4);
    expect(ours.result.stderr).toContain('1 of 3 samples failed');
    expect(ours.result.stderr).toContain('1 a scorer could not score');
    expect(ours.result.stderr).toContain('errors 1: scorer confaide-rating@1: no valid rating after 6 attempt(s) ×1');
    const mine = ours.metrics.pearson;
    expect(mine).toMatchObject({ n: 2, errors: 1 });
    // Two points, (-50, 40.5) and (-100, 55): a falling line.
    expect(mine?.value).toBeCloseTo(-1, 12);
  }, 300_000);
});
