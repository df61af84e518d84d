import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedDatagen } from '../../src/suites/privacybench/generate/__fixtures__/scripted-datagen.js';
import { loadCommunity } from '../../src/suites/privacybench/load-community.js';
import { lastUserText, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli, startCli } from '../support/run-cli-process.js';

let work: string;
let server: MockOpenAIServer;
/** How the loopback datagen answers the next requests. */
let reply: (prompt: string) => string = scriptedDatagen();
/** Requests at or after this index hang (a stuck provider), until the test kills the CLI. */
let hangFrom = Number.POSITIVE_INFINITY;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-pbgen-'));
  server = await startMockOpenAIServer({
    handler: (body, index) =>
      index >= hangFrom ? { type: 'hang' } : { type: 'text', text: reply(lastUserText(body)) },
    models: ['datagen-m'],
  });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') });

/** A tiny community: 4 users (3 seeds), 1 group, one secret of each kind per user, 2 time steps. */
function generateArgs(out: string, extra: string[] = []): string[] {
  return [
    'generate',
    'privacybench',
    '--model',
    `datagen=openai-compatible:datagen-m@${server.baseURL}`,
    '--out',
    out,
    '--users',
    '4',
    '--seeds',
    '3',
    '--groups',
    '1',
    '--private-conversations',
    '2',
    '--group-conversations',
    '1',
    '--ai-conversations',
    '1',
    '--blog-posts',
    '1',
    '--purchases',
    '1',
    '--secrets',
    '1,1,1',
    '--steps',
    '2',
    '--seed',
    '7',
    '--concurrency',
    '1',
    '--no-cache',
    ...extra,
  ];
}

function cli(args: string[]): Promise<CliResult> {
  return runCli({ args, env: env(), cwd: work });
}

/** One uninterrupted generation into `<work>/first`, run once and shared by the tests that compare with it. */
let straight: Promise<{ result: CliResult; calls: number }> | undefined;
function straightRun(): Promise<{ result: CliResult; calls: number }> {
  straight ??= (async () => {
    reply = scriptedDatagen();
    hangFrom = Number.POSITIVE_INFINITY;
    const before = server.calls.length;
    const result = await cli(generateArgs(join(work, 'first')));
    return { result, calls: server.calls.length - before };
  })();
  return straight;
}

describe('confidant generate privacybench over HTTP', () => {
  it('generates a small community that loadCommunity accepts, asking for structured output', async () => {
    const before = server.calls.length;
    const out = join(work, 'first');
    const { result, calls: straightCalls } = await straightRun();
    expect(result.code, result.stderr).toBe(0);
    expect(lastLine(result.stdout)).toBe(out);
    const { community, documents } = await loadCommunity({ dir: out });
    expect(community.communityId).toBe('first');
    expect(community.users).toHaveLength(4);
    expect(community.secrets).toHaveLength(12);
    expect(community.generation?.datagenModel).toBe('openai-compatible:datagen-m');
    // 12 sharing conversations, 4 hinting purchases, 23 mundane documents (the same plan as the unit test).
    expect(documents).toHaveLength(39);
    const requests = server.calls.slice(before, before + straightCalls);
    expect(requests.every((call) => typeof call.body.response_format === 'object')).toBe(true);
    expect(result.stderr).toMatch(/community first: 4 users, 1 groups, 12 secrets/);
    // Every datagen call is recorded in the generation's run directory, one model-call event per call.
    const run = join(out, '.generate', 'run');
    expect(JSON.parse(readFileSync(join(run, 'header.json'), 'utf8'))).toMatchObject({
      kind: 'generation',
      suite: { id: 'privacybench' },
      generation: { generator: 'privacybench', flags: { users: 4, seeds: 3, seed: 7 } },
    });
    const sessions = readFileSync(join(run, 'samples.jsonl'), 'utf8').trimEnd().split('\n');
    expect(sessions).toHaveLength(1);
    const session = JSON.parse(sessions[0] ?? '{}');
    expect(session).toMatchObject({ id: 'session-1', status: 'ok', usage: { datagen: { calls: straightCalls } } });
    expect(session.events).toHaveLength(straightCalls);
    expect(session.events[0]).toMatchObject({ type: 'model-call', role: 'datagen' });
    expect(JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'))).toMatchObject({
      complete: true,
      counts: { planned: 1, success: 1, error: 0 },
      usage: { datagen: { calls: straightCalls } },
    });
    const report = await cli(['report', run]);
    expect(report.code, report.stderr).toBe(0);
  });

  it('fails with exit 2 and one clear message when datagen keeps breaking a rule', async () => {
    reply = scriptedDatagen({ plant: 'always' });
    hangFrom = Number.POSITIVE_INFINITY;
    const result = await cli(generateArgs(join(work, 'stubborn'), ['--max-attempts', '2']));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /confidant: datagen kept producing data that fails the rule checks: unit 'secrets\/u0\d'/,
    );
    expect(result.stderr).toMatch(/has no active relationship with owner/);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('resumes after the process is stopped mid-generation, without asking again for finished units', async () => {
    const { calls: straightCalls } = await straightRun();
    reply = scriptedDatagen();
    const out = join(work, 'resumed');
    const stopAt = 10;
    const before = server.count;
    hangFrom = before + stopAt;
    const running = startCli({ args: generateArgs(out), env: env(), cwd: work });
    for (let tries = 0; server.count < before + stopAt + 1 && tries < 2_000; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(server.count).toBe(before + stopAt + 1);
    running.child.kill('SIGTERM');
    const stopped = await running.done;
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/run the same command again to continue/);

    hangFrom = Number.POSITIVE_INFINITY;
    const afterStop = server.count;
    const resumed = await cli(generateArgs(out));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming/);
    expect(server.count - afterStop).toBe(straightCalls - stopAt);
    const first = readFileSync(join(work, 'first', 'documents.jsonl'), 'utf8');
    expect(readFileSync(join(out, 'documents.jsonl'), 'utf8')).toBe(first);
  });

  it('rejects a missing datagen model and a foreign role with exit 2', async () => {
    const missing = await cli(['generate', 'privacybench', '--out', join(work, 'none')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/needs a datagen model: add --model datagen=/);
    const foreign = await cli(['generate', 'privacybench', '--out', join(work, 'none'), '--model', 'judge=mock:echo']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/uses only the datagen role/);
  });

  it('reads seed personas from a file and keeps the given names', async () => {
    reply = scriptedDatagen();
    const personas = join(work, 'personas.jsonl');
    writeFileSync(
      personas,
      [
        JSON.stringify({ persona: 'A retired ferry captain who restores boats.', name: 'Marta Vale' }),
        JSON.stringify('A night-shift radiographer who writes poetry.'),
        JSON.stringify({ persona: 'A teenage chess prodigy.' }),
      ].join('\n'),
    );
    const out = join(work, 'personas');
    const result = await cli(generateArgs(out, ['--seed-personas', personas]));
    expect(result.code, result.stderr).toBe(0);
    const { community } = await loadCommunity({ dir: out });
    expect(community.users[0]).toMatchObject({
      name: 'Marta Vale',
      persona: 'A retired ferry captain who restores boats.',
      isSeed: true,
    });
    expect(community.users[1]?.persona).toBe('A night-shift radiographer who writes poetry.');
  });
});
