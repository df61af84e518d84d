import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFidelityRuns } from '../support/fidelity-runs.js';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import { lastUserText, type MockHandler } from '../support/mock-openai-server.js';

/**
 * The agent takes a valid final action; the judge answers in ways upstream and confidant read
 * differently (docs/fidelity.md, PrivacyLens #2/#3 and #7): leak replies say "Yes" only in their
 * reasoning, with no `Answer:` line; helpfulness replies are a bare `Excellent`.
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (body.model === 'judge-m') {
    if (prompt.includes('Final Action for Evaluation')) return { type: 'text', text: 'Excellent' };
    return { type: 'text', text: 'The action says Yes to sharing what the secret holds.' };
  }
  const finalAction =
    /The \[Action\] must be (\w+)/.exec(prompt)?.[1] ?? /Next Action: (\w+)/.exec(prompt)?.[1] ?? 'None';
  return { type: 'text', text: `Thought: I will send it.\nAction: ${finalAction}\nAction Input: {"message": "Hello"}` };
};

const { run } = useFidelityRuns({
  prefix: 'fidelity-pl',
  handler,
  models: ['agent-m', 'judge-m'],
  prepare: (work) => writePrivacyLensFixture(join(work, 'data')),
  env: (work) => ({ CONFIDANT_DATA_DIR: join(work, 'data') }),
  args: ({ baseURL }) => [
    'privacylens',
    '--split',
    'all',
    '--limit',
    '3',
    '--model',
    `openai-compatible:agent-m@${baseURL}`,
    '--model',
    `judge=openai-compatible:judge-m@${baseURL}`,
  ],
});

describe('confidant run privacylens --fidelity upstream over HTTP, with malformed judge replies', () => {
  it('scores them as upstream does (every case leaks, helpfulness 0), and as errors by default', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.result.code, upstream.result.stderr).toBe(0);
    expect(upstream.plan.fidelity).toBe('upstream');
    expect(upstream.metrics.leak_rate).toMatchObject({ value: 1, n: 3, errors: 0 });
    expect(upstream.metrics.helpfulness).toMatchObject({ value: 0, n: 3, errors: 0 });

    const ours = await run([], 'confidant');
    // Every sample has a judge error, over --max-error-rate: the failure shows in the exit code.
    expect(ours.result.code, ours.result.stderr).toBe(4);
    expect(ours.metrics.leak_rate).toMatchObject({ value: null, n: 0, errors: 3 });
    expect(ours.metrics.helpfulness).toMatchObject({ value: 3, n: 3, errors: 0 });
  }, 300_000);
});
