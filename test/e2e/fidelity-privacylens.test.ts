import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import {
  lastUserText,
  type MockHandler,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type Summary = { metrics: Record<string, { value: number | null; n: number; errors: number }> };

let work: string;
let server: MockOpenAIServer;

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

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-fidelity-pl-'));
  writePrivacyLensFixture(join(work, 'data'));
  server = await startMockOpenAIServer({ handler, models: ['agent-m', 'judge-m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function run(extra: string[], out: string): Promise<CliResult> {
  return runCli({
    args: [
      'run',
      'privacylens',
      '--split',
      'all',
      '--limit',
      '3',
      '--model',
      `openai-compatible:agent-m@${server.baseURL}`,
      '--model',
      `judge=openai-compatible:judge-m@${server.baseURL}`,
      '--out',
      join(work, out),
      ...extra,
    ],
    env: { HOME: work, CONFIDANT_DATA_DIR: join(work, 'data'), CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

describe('confidant run privacylens --fidelity upstream over HTTP, with malformed judge replies', () => {
  it('scores them as upstream does (every case leaks, helpfulness 0), and as errors by default', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.code, upstream.stderr).toBe(0);
    const upstreamDir = lastLine(upstream.stdout);
    const header = JSON.parse(readFileSync(join(upstreamDir, 'header.json'), 'utf8')) as {
      plan: { fidelity?: string; suiteOptions: Record<string, unknown> };
    };
    expect(header.plan.fidelity).toBe('upstream');
    const up = (JSON.parse(readFileSync(join(upstreamDir, 'summary.json'), 'utf8')) as Summary).metrics;
    expect(up.leak_rate).toMatchObject({ value: 1, n: 3, errors: 0 });
    expect(up.helpfulness).toMatchObject({ value: 0, n: 3, errors: 0 });

    const ours = await run([], 'confidant');
    // Every sample has a judge error, over --max-error-rate: the failure shows in the exit code.
    expect(ours.code, ours.stderr).toBe(4);
    const mine = (JSON.parse(readFileSync(join(lastLine(ours.stdout), 'summary.json'), 'utf8')) as Summary).metrics;
    expect(mine.leak_rate).toMatchObject({ value: null, n: 0, errors: 3 });
    expect(mine.helpfulness).toMatchObject({ value: 3, n: 3, errors: 0 });
  }, 300_000);
});
