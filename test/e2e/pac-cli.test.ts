import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRecordRefs } from '../../src/store/record-line.js';
import {
  type ChatCompletionsBody,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type StoredRecord = {
  id: string;
  status: string;
  variant: Record<string, string>;
  terminationReason?: string;
  output: { messages: Array<{ agentId: string; text: string; toolCalls: Array<{ name: string; egress: boolean }> }> };
};

let work: string;
let server: MockOpenAIServer;

/**
 * Every seat model first writes a file into the shared folder (a tool call over HTTP), then,
 * once it has seen a tool result, says it is done with [FIN].
 */
function seatHandler(body: ChatCompletionsBody) {
  const messages = body.messages ?? [];
  if (messages.some((message) => message.role === 'tool')) {
    return { type: 'text' as const, text: `${body.model}: my part is in the shared folder. [FIN]` };
  }
  return {
    type: 'tool-calls' as const,
    toolCalls: [
      {
        name: 'filesystem_write_file',
        arguments: { path: `/workspace/shared/${String(body.model)}.md`, content: `notes from ${body.model}` },
      },
    ],
  };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-pac-'));
  server = await startMockOpenAIServer({ handler: (body) => seatHandler(body), models: ['m1', 'm2', 'seat'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliResult> {
  return runCli({
    args,
    env: { HOME: work, CONFIDANT_DATA_DIR: join(work, 'no-data'), CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const model = (name: string) => `openai-compatible:${name}@${server.baseURL}`;
const deterministic = ['--set', 'taskMode=markers', '--set', 'privacyMode=keyword-only'];

function records(runDir: string): StoredRecord[] {
  return readFileSync(join(runDir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => resolveRecordRefs(JSON.parse(line)) as StoredRecord);
}

describe('confidant run pac over HTTP', () => {
  it('runs the starter split with scripted replies: tool calls, [FIN]s, one record per scenario', async () => {
    const result = await cli(['run', 'pac', '--split', 'starter', '--model', model('seat'), ...deterministic]);
    expect(result.code, result.stderr).toBe(0);
    const runDir = lastLine(result.stdout);
    const stored = records(runDir);
    expect(stored).toHaveLength(3);
    for (const record of stored) {
      expect(record.status).toBe('ok');
      expect(record.terminationReason).toBe('both-fin');
      for (const message of record.output.messages) {
        expect(message.text).toBe('seat: my part is in the shared folder. [FIN]');
        expect(message.toolCalls).toEqual([expect.objectContaining({ name: 'filesystem_write_file', egress: true })]);
      }
    }
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as {
      counts: { success: number };
      metrics: { ps: { value: number | null }; grounded_rate: { value: number | null } };
    };
    expect(summary.counts.success).toBe(3);
    // Nobody shared a violation keyword; no LLM judge ran, so grounding is not applicable.
    expect(summary.metrics.ps.value).toBe(1);
    expect(summary.metrics.grounded_rate.value).toBeNull();
    expect(result.stdout).toContain('TS');
  }, 60_000);

  it('runs a seat grid (two initiators × a reference partner) as variants of one run', async () => {
    const result = await cli([
      'run',
      'pac',
      '--split',
      'starter',
      '--domain',
      'Artisan_Bakeries',
      '--grid',
      `agent-a=${model('m1')},${model('m2')}`,
      '--model',
      'agent-b=reference:naive',
      ...deterministic,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const runDir = lastLine(result.stdout);
    const stored = records(runDir);
    expect(stored.map((record) => [record.variant.agent_a, record.variant.agent_b])).toEqual([
      ['openai-compatible:m1', 'reference:naive'],
      ['openai-compatible:m2', 'reference:naive'],
    ]);
    const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as {
      models: Record<string, Array<{ modelId: string }>>;
    };
    expect(header.models['agent-a']?.map((entry) => entry.modelId)).toEqual(['m1', 'm2']);
    expect(header.models['agent-b']).toBeUndefined();
    expect(stored[1]?.output.messages[0]?.text).toBe('m2: my part is in the shared folder. [FIN]');

    const report = await cli(['report', runDir]);
    expect(report.code, report.stderr).toBe(0);
    // The paper's Table 1 layout: one row per initiator, one column per partner.
    expect(report.stdout).toContain('| Initiator \\ Partner | reference:naive | Mean over partners |');
    expect(report.stdout).toMatch(/\| openai-compatible:m1 \| [^|]+ \(n=1\) \|/);
    expect(report.stdout).toMatch(/\| openai-compatible:m2 \| [^|]+ \(n=1\) \|/);
  }, 60_000);

  it('says the paper data is local-only when it is missing (exit 2)', async () => {
    const result = await cli(['run', 'pac', '--split', 'range', '--model', model('seat'), ...deterministic]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no licence');
    expect(result.stderr).toContain('--split starter');
    // It can be installed from a local copy, never downloaded: no bare `data pull pacbench`.
    expect(result.stderr).toContain('confidant data pull pacbench --from <your copy>');
    expect(result.stderr).not.toMatch(/data pull pacbench(?! --from)/);
  }, 60_000);
});
