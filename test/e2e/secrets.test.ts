import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import { type MockHandler, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { privactTreeReply } from '../support/privact-tree-replies.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine, runCli } from '../support/run-cli-process.js';
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
const asked = new Map<string, number>();
/**
 * A valid tier-1 rating for ConfAIde (so that run finishes clean and only the secrets are under
 * test), and the scripted privact-tree models for the tree run whose pairs are exported.
 */
const handler: MockHandler = (body) =>
  body.model === 'echo'
    ? { type: 'text', text: 'Very sensitive' }
    : { type: 'text', text: privactTreeReply({ body, asked }) };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-secrets-'));
  writePrivacyLensFixture(join(work, 'data'));
  server = await startMockOpenAIServer({ handler, models: ['echo', 'chain', 'judge'], maxRequests: 5000 });
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

  it('after run, resume, report (every format), rescore and export, no file anywhere holds the key', async () => {
    const canary = 'sk-CANARY-ALL-51d2e8';
    const keyed = env({ OPENAI_COMPATIBLE_API_KEY: canary, CONFIDANT_DATA_DIR: join(work, 'data') });
    const here = (args: string[]) => runCliInProcess({ args, env: keyed, cwd: work });
    const model = (name: string) => `openai-compatible:${name}@${server.baseURL}`;
    const before = server.calls.length;
    const tree = await runCli({
      args: [
        ...['run', 'privact-tree', '--split', 'all', '--branching', '2,2,2', '--limit', '2'],
        ...['--model', model('chain'), '--model', `judge=${model('judge')}`, '--out', join(work, 'runs-all')],
      ],
      env: keyed,
      cwd: work,
    });
    expect(tree.code, tree.stderr).toBe(0);
    const runDir = lastLine(tree.stdout);
    const out = join(work, 'outputs');
    const steps = [
      ['resume', runDir],
      ['report', runDir, '--out', join(out, 'report.md')],
      ['report', runDir, '--format', 'csv', '--out', join(out, 'report.csv')],
      ['report', runDir, '--format', 'json', '--out', join(out, 'report.json')],
      ['report', runDir, '--format', 'html', '--out', join(out, 'report.html')],
      ['report', runDir, '--per-sample', '--format', 'jsonl', '--out', join(out, 'samples.jsonl')],
      ['compare', runDir, runDir],
      ['export', 'preferences', runDir, '--out', join(out, 'pairs')],
      ['rescore', runDir, '--model', `judge=${model('judge')}`, '--out', join(work, 'runs-all')],
    ];
    for (const args of steps) {
      const result = await here(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(canary);
    }
    // The key went out with every request, and the outputs are there to be read.
    const calls = server.calls.slice(before);
    expect(calls.length).toBeGreaterThan(16);
    expect(calls.every((call) => call.headers.authorization === `Bearer ${canary}`)).toBe(true);
    expect(filesUnder(join(out, 'pairs')).length).toBeGreaterThan(1);
    expect(filesUnder(join(work, 'cache')).length).toBeGreaterThan(0);
    expect(filesContaining(work, canary)).toEqual([]);
    // A rescore judge with credentials in its URL is refused as a run's is.
    const refused = await here(['rescore', runDir, '--model', `judge=${model('judge')}?token=CANARY-URL-4`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('set the environment variable OPENAI_COMPATIBLE_API_KEY instead');
    expect(refused.stderr).not.toContain('CANARY-URL-4');
    expect(filesContaining(work, 'CANARY-URL-4')).toEqual([]);
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

  it('so are they in a --config file and a sweep file: exit 2, and only the file the user wrote holds them', async () => {
    const url = `${server.baseURL}?api_key=CANARY-URL-3`;
    const config = join(work, 'secret-config.json');
    writeFileSync(config, JSON.stringify({ model: [`openai-compatible:echo@${url}`], tier: '1' }));
    const sweep = join(work, 'secret-sweep.yaml');
    writeFileSync(
      sweep,
      `name: secret\nsettings:\n  suite: confaide\n  set: { tier: "1" }\naxes:\n  model:\n    m: { model: ["openai-compatible:echo@${url}"] }\n`,
    );
    const here = (args: string[]) => runCliInProcess({ args, env: env({}), cwd: work });
    for (const args of [
      ['run', 'confaide', '--config', config, '--out', join(work, 'run-config')],
      ['sweep', 'run', sweep, '--out', join(work, 'sweep-secret')],
    ]) {
      const result = await here(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stdout + result.stderr).not.toContain('CANARY-URL-3');
      expect(result.stderr).toContain('set the environment variable OPENAI_COMPATIBLE_API_KEY instead');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(filesContaining(work, 'CANARY-URL-3').sort()).toEqual([config, sweep].sort());
  });
});
