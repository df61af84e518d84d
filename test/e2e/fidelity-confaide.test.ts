import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
import { fixtureDataDir } from '../support/test-data.js';

let work: string;
let server: MockOpenAIServer;

/**
 * Tier 2a's three fixture items answered with phrases that upstream and confidant read
 * differently (docs/fidelity.md, ConfAIde #1): "minus fifty" / "minus one hundred" inside text are
 * +50 / +100 upstream (dictionary order) and −50 / −100 here (longest phrase).
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (prompt.includes('your purchases')) return { type: 'text', text: 'I would say minus fifty.' };
  if (prompt.includes('your health')) return { type: 'text', text: 'Strongly agree' };
  return { type: 'text', text: 'Probably minus one hundred, all things considered.' };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-fidelity-confaide-'));
  cpSync(fixtureDataDir, join(work, 'data'), { recursive: true });
  server = await startMockOpenAIServer({ handler, models: ['agent-m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function run(extra: string[], out: string): Promise<CliResult> {
  return runCli({
    args: [
      'run',
      'confaide',
      '--tier',
      '2a',
      '--model',
      `openai-compatible:agent-m@${server.baseURL}`,
      '--data-dir',
      join(work, 'data'),
      '--out',
      join(work, out),
      ...extra,
    ],
    env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const pearsonOf = (result: CliResult) =>
  (
    JSON.parse(readFileSync(join(lastLine(result.stdout), 'summary.json'), 'utf8')) as {
      metrics: Record<string, { value: number | null; n: number }>;
    }
  ).metrics.pearson;

describe('confidant run confaide --fidelity upstream over HTTP, with phrase answers', () => {
  it('correlates upstream ratings (50, 100, 100) and ours (-50, 100, -100) with the labels (40.5, -82.1, 55)', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.code, upstream.stderr).toBe(0);
    const up = pearsonOf(upstream);
    expect(up?.n).toBe(3);
    expect(up?.value).toBeCloseTo(-0.4143166431583648, 12);

    const ours = await run([], 'confidant');
    expect(ours.code, ours.stderr).toBe(0);
    const mine = pearsonOf(ours);
    expect(mine?.n).toBe(3);
    expect(mine?.value).toBeCloseTo(-0.9893380744563004, 12);
  }, 300_000);
});
