import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

let work: string;
let dead: number;
const servers: MockOpenAIServer[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-preflight-'));
  dead = await closedPort();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(work, { recursive: true, force: true });
});

async function serve(options: Parameters<typeof startMockOpenAIServer>[0]): Promise<MockOpenAIServer> {
  const server = await startMockOpenAIServer(options);
  servers.push(server);
  return server;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli({ args, env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache'), ...env }, cwd: work });
}

/** A toy-leak run into its own out folder (so a test can see that no run directory was made). */
function toyRun(name: string, models: string[], extra: string[] = []): string[] {
  return ['run', 'toy-leak', ...models.flatMap((model) => ['--model', model]), '--out', join(work, name), ...extra];
}

const runDirs = (name: string) => (existsSync(join(work, name)) ? readdirSync(join(work, name)) : []);

describe('pre-flight check through the CLI', () => {
  it('stops on a closed port before any sample, naming the role, the endpoint, the cause and the fix', async () => {
    const result = await cli(toyRun('refused', [`vllm:Qwen/Qwen3-4B@http://127.0.0.1:${dead}/v1`]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `confidant: pre-flight check failed, no sample was run: agent: vllm:Qwen/Qwen3-4B at http://127.0.0.1:${dead}/v1: connection refused: nothing listens on 127.0.0.1:${dead}; start the model server at http://127.0.0.1:${dead}/v1, or check the host and port in the URL (or skip the check with --no-preflight)\n`,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('secret');
    expect(result.stderr).not.toContain('internal error');
    expect(runDirs('refused')).toEqual([]);
  });

  it('names the model ids a vLLM server offers when the id is unknown, and sends no completion', async () => {
    const server = await serve({ models: ['Qwen/Qwen3-4B', 'Qwen/Qwen3-8B'] });
    const result = await cli(toyRun('unknown', [`vllm:qwen3-4b@${server.baseURL}`]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `agent: vllm:qwen3-4b at ${server.baseURL}: the server does not serve "qwen3-4b"; use a model id the server offers: Qwen/Qwen3-4B, Qwen/Qwen3-8B`,
    );
    expect(server.modelListings).toBe(1);
    expect(server.count).toBe(0);
    expect(runDirs('unknown')).toEqual([]);
  });

  it('reports a rejected key as 401 with the variable to set, never the key', async () => {
    const server = await serve({ models: ['m'], apiKey: 'the-right-key' });
    const result = await cli(toyRun('unauthorized', [`judge=vllm:m@${server.baseURL}`, 'mock:echo']), {
      VLLM_API_KEY: 'sk-wrong-value-123',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `judge: vllm:m at ${server.baseURL}: HTTP 401: Incorrect API key provided; set VLLM_API_KEY to a valid key with access to m`,
    );
    expect(result.stderr).not.toContain('sk-wrong-value-123');
    expect(server.count).toBe(0);
  });

  it('lists every failing endpoint at once, one probe per distinct endpoint shared by its roles', async () => {
    const server = await serve({ models: ['m'] });
    const result = await cli(
      toyRun('several', [
        `vllm:m@http://127.0.0.1:${dead}/v1`,
        `generator=vllm:m@http://127.0.0.1:${dead}/v1`,
        `judge=openai:gpt-4o`,
        `prober=vllm:m@${server.baseURL}`,
      ]),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`  agent, generator: vllm:m at http://127.0.0.1:${dead}/v1: connection refused`);
    expect(result.stderr).toContain('  judge: openai:gpt-4o needs an API key: set OPENAI_API_KEY');
    expect(result.stderr).toContain('Fix these and run the command again');
    expect(result.stderr).not.toContain('prober: vllm');
    expect(server.modelListings).toBe(1);
  });

  it('checks a server without /models with one 1-token generation, then runs', async () => {
    const server = await serve({ modelsRoute: { type: 'absent' } });
    const result = await cli(toyRun('generation', [`openai-compatible:m@${server.baseURL}`]));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('pre-flight: 1 model endpoint ready (agent)');
    expect(server.calls[0]?.body).toMatchObject({ model: 'm', max_tokens: 1 });
    expect(server.count).toBe(1 + 4);
  });

  it('--no-preflight skips the check: the run starts and records the failures', async () => {
    const result = await cli(
      toyRun('skipped', [`vllm:m@http://127.0.0.1:${dead}/v1`], ['--no-preflight', '--max-retries', '0']),
    );
    expect(result.code).not.toBe(2);
    expect(result.stderr).not.toContain('pre-flight');
    const runDir = lastLine(result.stdout);
    const records = readFileSync(join(runDir, 'samples.jsonl'), 'utf8').trim().split('\n');
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((line) => (JSON.parse(line) as { status: string }).status === 'error')).toBe(true);
  });

  it('checks the datagen endpoint of confidant generate before the first call', async () => {
    const out = join(work, 'generated');
    const result = await runCli({
      args: [
        'generate',
        'pac',
        '--model',
        `datagen=vllm:m@http://127.0.0.1:${dead}/v1`,
        '--domain',
        'Banks',
        '--out',
        out,
      ],
      env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') },
      cwd: work,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`datagen: vllm:m at http://127.0.0.1:${dead}/v1: connection refused`);
    expect(existsSync(join(out, '.generate', 'run'))).toBe(false);
  });
});

describe('what the CLI says before and around a run', () => {
  let finished = '';

  it('prints the run directory on stderr first, warns about a judge with no LLM judge and a repeated defense', async () => {
    const result = await cli(
      toyRun('warned', ['mock:echo', 'judge=mock:echo'], ['--defense', 'ppe', '--defense', 'privacy-prompt']),
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n');
    const runDir = lastLine(result.stdout);
    finished = runDir;
    expect(lines).toContain(
      'warning: --model judge=… is given, but toy-leak with these options has no LLM judge (it scores with deterministic judges only), so the judge model is never called',
    );
    expect(lines).toContain(
      'warning: --defense privacy-prompt is given 2 times; it rewrites the prompt 2 times, in order',
    );
    const first = lines.findIndex((line) => line.startsWith('run directory: '));
    expect(lines[first]).toBe(`run directory: ${runDir} (resume with: confidant resume ${runDir})`);
    expect(lines.findIndex((line) => line.startsWith('progress') || line.startsWith('samples:'))).toBeGreaterThan(
      first,
    );
  });

  it('warns that a base URL without http:// was read as part of the model id', async () => {
    const result = await cli(toyRun('schemeless', ['openai-compatible:m@127.0.0.1:8000/v1']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'warning: --model agent=openai-compatible:m@127.0.0.1:8000/v1: "127.0.0.1:8000/v1" has no http:// or https://, so it was read as part of the model id "m@127.0.0.1:8000/v1"; did you mean openai-compatible:m@http://127.0.0.1:8000/v1?',
    );
    expect(result.stderr).toContain('confidant: openai-compatible needs a base URL in the spec');
    expect(result.stderr).not.toContain('internal error');
  });

  it('reports every missing role in one message', async () => {
    const result = await cli(['run', 'privacybench', '--model', 'mock:echo', '--out', join(work, 'roles')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'confidant: suite privacybench needs 2 more roles:\n  prober: add --model prober=<provider:model>\n  judge: add --model judge=<provider:model>\n',
    );
  });

  it('report --out creates missing folders and refuses a directory; run --out refuses a file', async () => {
    const runDir = finished;
    const nested = join(work, 'reports', 'deep', 'toy.md');
    const report = await cli(['report', runDir, '--out', nested]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(nested, 'utf8')).toContain('Leak rate');
    mkdirSync(join(work, 'a-folder'));
    const folder = await cli(['report', runDir, '--out', join(work, 'a-folder')]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`confidant: --out ${join(work, 'a-folder')} is a directory; give a file path`);
    writeFileSync(join(work, 'a-file'), 'x');
    const onFile = await cli(toyRun('a-file', ['mock:echo']));
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain(
      `cannot create run directories in ${join(work, 'a-file')}: it (or a folder above it) is a file`,
    );
  });
});
