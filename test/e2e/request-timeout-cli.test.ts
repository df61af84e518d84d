import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let work: string;
let server: MockOpenAIServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-timeout-'));
  server = await startMockOpenAIServer({ handler: () => ({ type: 'hang' }), models: ['m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache'), OPENAI_COMPATIBLE_API_KEY: 'sk-test' });

function onlyRunDir(out: string): string {
  const [name, ...rest] = readdirSync(out);
  expect(rest).toEqual([]);
  return join(out, name!);
}

describe('--request-timeout and --max-retry-after', () => {
  it('end a hanging request after the given seconds and are recorded in the run header', async () => {
    const out = join(work, 'runs');
    const result = await runCliInProcess({
      args: [
        'run',
        'toy-leak',
        '--model',
        `openai-compatible:m@${server.baseURL}`,
        '--limit',
        '1',
        '--max-retries',
        '0',
        '--request-timeout',
        '0.3',
        '--max-retry-after',
        '7',
        '--no-preflight',
        '--out',
        out,
      ],
      env: env(),
      cwd: work,
    });
    const runDir = onlyRunDir(out);
    const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as {
      plan: { requestTimeoutMs: number; maxRetryAfterMs: number };
    };
    expect(header.plan.requestTimeoutMs).toBe(300);
    expect(header.plan.maxRetryAfterMs).toBe(7000);
    const records = readFileSync(join(runDir, 'samples.jsonl'), 'utf8').trim().split('\n');
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]!)).toMatchObject({ status: 'error' });
    expect(records[0]).toContain('no response within 300 ms');
    expect(result.code).not.toBe(0);
  });

  it('refuse a timeout that is not a positive number (exit 2, naming the flag)', async () => {
    for (const [flag, value] of [
      ['--request-timeout', '0'],
      ['--request-timeout', 'soon'],
      ['--max-retry-after', '-1'],
    ] as const) {
      const result = await runCliInProcess({
        args: ['run', 'toy-leak', '--model', 'mock:echo', flag, value, '--out', join(work, 'bad')],
        env: env(),
        cwd: work,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(flag);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
