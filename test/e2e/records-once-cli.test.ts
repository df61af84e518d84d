import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SamplesFile } from '../../src/reports/html/samples-file.js';
import { RECORD_REFS_KEY, resolveRecordRefs } from '../../src/store/record-line.js';
import { type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';

/**
 * samples.jsonl stores each long text once (store/record-line.ts). A ConfAIde run against the
 * loopback server is compared with the same run directory rewritten as every line was written
 * before (each record plain `JSON.stringify`): the file is smaller, and every reader (reports in
 * each format, the per-sample export, resume, the viewer's sample pages and search) gives the
 * same output from both.
 */

let work: string;
let server: MockOpenAIServer;
let runDir: string;
let plainDir: string;

/** An answer that is not the prompt: the agent restates the story's last line and declines. */
const ANSWER_PREFIX = 'I will not pass on what I was told in confidence; here is what I would say instead.';

const cli = (args: string[]): Promise<CliResult> =>
  runCli({
    args,
    env: { HOME: work, CONFIDANT_DATA_DIR: fixtureDataDir, CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });

/** The reports run in this process (each in a child would cost a start-up); the run itself is the built CLI. */
const report = (args: string[]) => runCliInProcess({ args: ['report', ...args], env: { HOME: work }, cwd: work });

const lines = (dir: string) => readFileSync(join(dir, 'samples.jsonl'), 'utf8').trimEnd().split('\n');

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-records-once-'));
  server = await startMockOpenAIServer({
    handler: (body) => {
      const last = body.messages?.at(-1)?.content;
      return { type: 'text', text: `${ANSWER_PREFIX} ${typeof last === 'string' ? last.slice(-80) : ''}` };
    },
    models: ['agent'],
  });
  const run = await cli([
    'run',
    'confaide',
    '--tier',
    '3',
    '--set',
    'questions=free-response',
    '--limit',
    '4',
    '--model',
    `openai-compatible:agent@${server.baseURL}`,
    '--out',
    join(work, 'runs'),
  ]);
  expect(run.code, run.stderr).toBe(0);
  runDir = lastLine(run.stdout);
  plainDir = join(work, 'plain');
  cpSync(runDir, plainDir, { recursive: true });
  const plain = lines(runDir).map((line) => JSON.stringify(resolveRecordRefs(JSON.parse(line))));
  writeFileSync(join(plainDir, 'samples.jsonl'), `${plain.join('\n')}\n`);
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('samples.jsonl with each text stored once', () => {
  it('stores the prompt and the answer once per line, saving their repeats less the pointers', () => {
    let repeated = 0;
    for (const line of lines(runDir)) {
      const record = resolveRecordRefs(JSON.parse(line)) as {
        input: { messages: Array<{ content: string }> };
        output: { response: string };
      };
      const prompt = record.input.messages[0]!.content;
      const answer = record.output.response;
      expect(answer.startsWith(ANSWER_PREFIX)).toBe(true);
      repeated += prompt.length + 2 * answer.length;
      expect(line.split(JSON.stringify(prompt).slice(1, -1)).length - 1).toBe(1);
      expect(line.split(JSON.stringify(answer).slice(1, -1)).length - 1).toBe(1);
      expect(JSON.parse(line)[RECORD_REFS_KEY]).toEqual([
        '/output/stages/0/text',
        '/events/2/request/messages/0/content',
        '/events/2/response/text',
      ]);
    }
    const encoded = statSync(join(runDir, 'samples.jsonl')).size;
    const plain = statSync(join(plainDir, 'samples.jsonl')).size;
    // Three pointers in place and three in $refs cost under 250 bytes a line.
    expect(plain - encoded).toBeGreaterThan(repeated - 250 * lines(runDir).length);
    expect(plain - encoded).toBeLessThan(repeated);
  });

  it.each([
    ['md', []],
    ['json', ['--format', 'json']],
    ['html', ['--format', 'html']],
    ['per-sample jsonl', ['--per-sample', '--format', 'jsonl']],
    ['per-sample csv', ['--per-sample', '--format', 'csv']],
  ])('the %s report is the same as from the plain file', async (_name, args) => {
    const encoded = await report([runDir, ...args]);
    const plain = await report([plainDir, ...args]);
    expect(encoded.code, encoded.stderr).toBe(0);
    expect(plain.code, plain.stderr).toBe(0);
    expect(encoded.stdout.length).toBeGreaterThan(100);
    expect(encoded.stdout).toBe(plain.stdout);
  });

  it('the viewer serves the same records and finds the same samples', async () => {
    const encoded = await SamplesFile.open(join(runDir, 'samples.jsonl'));
    const plain = await SamplesFile.open(join(plainDir, 'samples.jsonl'));
    expect(encoded.rows).toEqual(plain.rows);
    for (const { id } of plain.rows) expect(await encoded.record(id)).toEqual(await plain.record(id));
    expect(await encoded.search('Instruction')).toEqual(await plain.search('Instruction'));
    expect(await encoded.search(ANSWER_PREFIX)).toEqual(plain.rows.map((row) => row.id));
  });

  it('a resume of the finished run runs nothing and keeps the file as it was', async () => {
    const before = readFileSync(join(runDir, 'samples.jsonl'), 'utf8');
    const resumed = await cli(['resume', runDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(runDir, 'samples.jsonl'), 'utf8')).toBe(before);
  });
});
