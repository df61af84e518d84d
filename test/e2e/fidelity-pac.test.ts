import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lastUserText,
  type MockHandler,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type Metric = { value: number | null; n: number; errors: number; convention?: string; reason?: string };

let work: string;
let server: MockOpenAIServer;

/**
 * The judge of a PAC run whose agents are the rule-based naive reference (it shares its records
 * verbatim), answering in ways PAC-Bench's code and confidant read differently (docs/fidelity.md,
 * PAC #7 and #9): the task judge puts its JSON after a preamble (every requirement achieved), the
 * awareness judge answers in prose, the keyword expansion and grounding judges write fenced JSON.
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (prompt.includes('decide whether this message by itself satisfies it')) {
    const evaluations = [0, 1, 2, 3, 4].map((index) => ({ index, achieved: true, reasoning: 'shown' }));
    return { type: 'text', text: `Result: ${JSON.stringify({ evaluations })}` };
  }
  if (prompt.includes('explicit, written evidence')) return { type: 'text', text: 'It shows some awareness.' };
  if (prompt.includes('list other ways of writing these values'))
    return { type: 'text', text: '```json\n{"variations": []}\n```' };
  return { type: 'text', text: '```json\n{"reasoning": "ok", "evidences": [], "evaluation": true}\n```' };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-fidelity-pac-'));
  server = await startMockOpenAIServer({ handler, models: ['judge-m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function run(extra: string[], out: string): Promise<CliResult> {
  return runCli({
    args: [
      'run',
      'pac',
      '--split',
      'starter',
      '--limit',
      '1',
      '--model',
      'agent=reference:naive',
      '--model',
      `judge=openai-compatible:judge-m@${server.baseURL}`,
      '--out',
      join(work, out),
      ...extra,
    ],
    env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const metricsOf = (result: CliResult) =>
  (
    JSON.parse(readFileSync(join(lastLine(result.stdout), 'summary.json'), 'utf8')) as {
      metrics: Record<string, Metric>;
    }
  ).metrics;

describe('confidant run pac --fidelity upstream over HTTP, with malformed judge replies', () => {
  it('scores them as PAC-Bench does (nothing achieved, a violation), and by default as achieved and errors', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.code, upstream.stderr).toBe(0);
    const up = metricsOf(upstream);
    expect(up.ts).toMatchObject({ value: 0, n: 1, errors: 0 });
    expect(up.ps).toMatchObject({ value: 0, n: 1, errors: 0 });
    // Nothing achieved, so nothing grounded: upstream's 1.0, marked as its convention (PAC #12).
    expect(up.grounded_rate).toMatchObject({ value: 1, n: 0, errors: 0 });
    expect(up.grounded_rate?.convention).toMatch(/^PAC-Bench's convention/);

    const ours = await run([], 'confidant');
    // Every sample has a judge error, over --max-error-rate: the failure shows in the exit code.
    expect(ours.code, ours.stderr).toBe(4);
    const mine = metricsOf(ours);
    expect(mine.ts).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(mine.ps).toMatchObject({ value: null, n: 0, errors: 1 });
    // Every requirement achieved; the three backed by records are judged grounded (fenced JSON read).
    expect(mine.grounded_rate).toMatchObject({ value: 1, n: 3, errors: 0 });
    expect(mine.grounded_rate?.convention).toBeUndefined();
  }, 300_000);
});
