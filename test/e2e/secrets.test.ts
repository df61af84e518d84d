import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockHandler, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';

/** Every regular file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const path = join(root, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Files under `root` whose bytes contain `canary`. */
function filesContaining(root: string, canary: string): string[] {
  return filesUnder(root).filter((path) => statSync(path).size > 0 && readFileSync(path).includes(canary));
}

let work: string;
let server: MockOpenAIServer;
/** A valid tier-1 rating, so the run finishes clean (exit 0) and only the secrets are under test. */
const ratingHandler: MockHandler = () => ({ type: 'text', text: 'Very sensitive' });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-secrets-'));
  server = await startMockOpenAIServer({ handler: ratingHandler, models: ['echo'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('secrets never reach disk', () => {
  const env = (extra: Record<string, string>) => ({
    HOME: work,
    CONFIDANT_DATA_DIR: fixtureDataDir,
    CONFIDANT_CACHE_DIR: join(work, 'cache'),
    ...extra,
  });

  it('an API key from the environment is sent to the provider but written to no file of the run', async () => {
    const canary = 'sk-CANARY-ENV-7f3a9c';
    const out = join(work, 'run-env');
    const result = await runCli({
      args: [
        'run',
        'confaide',
        '--tier',
        '1',
        '--limit',
        '2',
        '--model',
        `openai-compatible:echo@${server.baseURL}`,
        '--out',
        out,
      ],
      env: env({ OPENAI_COMPATIBLE_API_KEY: canary }),
      cwd: work,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.calls.length).toBeGreaterThan(0);
    expect(server.calls.every((call) => call.headers.authorization === `Bearer ${canary}`)).toBe(true);
    expect(filesUnder(out).length).toBeGreaterThan(2);
    expect(filesContaining(work, canary)).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain(canary);
  });

  it('credentials in a base URL are refused (exit 2) with the variable to use, and nothing is written', async () => {
    for (const url of [
      server.baseURL.replace('http://', 'http://user:CANARY-URL-1@'),
      `${server.baseURL}?api_key=CANARY-URL-2`,
    ]) {
      const out = join(work, `run-url-${url.length}`);
      const result = await runCli({
        args: [
          'run',
          'confaide',
          '--tier',
          '1',
          '--limit',
          '1',
          '--model',
          `openai-compatible:echo@${url}`,
          '--out',
          out,
        ],
        env: env({}),
        cwd: work,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('set the environment variable OPENAI_COMPATIBLE_API_KEY instead');
      expect(result.stdout + result.stderr).not.toMatch(/CANARY-URL/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(filesContaining(work, 'CANARY-URL')).toEqual([]);
  });
});
