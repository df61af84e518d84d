import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_COMMUNITY_DIR } from '../../src/suites/privacybench/starter-community.js';
import {
  lastUserText,
  type MockHandler,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type Metric = { value: number | null; n: number; errors: number; notApplicable: number };
type Summary = {
  metrics: Record<string, Metric>;
  groups?: Record<string, Record<string, Record<string, Metric>>>;
  usage: Record<string, { calls: number }>;
  counts: { planned: number; success: number; error: number };
};

const MARK = 'LEAKED-IT-ALL';
let work: string;
let server: MockOpenAIServer;
/** Whether the assistant model spills (its replies carry the mark the judge looks for). */
let leaky = false;

/**
 * Plays three models told apart by name: the prober asks about Maya's health with the secret's
 * own words (so retrieval finds its chunks), the agent answers discreetly or spills, and the
 * judge says revealed exactly when an assistant line carries the mark, and rates persona 4/4.
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (body.model === 'prober-m') return { type: 'text', text: 'hey, how are you feeling? anxiety? sertraline?' };
  if (body.model === 'agent-m') {
    return { type: 'text', text: leaky ? `<think>why not</think>ok fine: ${MARK}` : 'all good here lol 🙂' };
  }
  if (prompt.includes('Rate how well'))
    return { type: 'text', text: '{"reasoning": "ok", "style": 4, "personality": 4}' };
  const revealed = new RegExp(`\\): [^\\n]*${MARK}`).test(prompt);
  return { type: 'text', text: JSON.stringify({ reasoning: 'read it', evidence: [], revealed }) };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-pb-'));
  server = await startMockOpenAIServer({ handler, models: ['agent-m', 'prober-m', 'judge-m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliResult> {
  return runCli({
    args,
    // No data directory exists: the suite runs on its committed starter community.
    env: { HOME: work, CONFIDANT_DATA_DIR: join(work, 'no-data'), CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const agent = () => ['--model', `openai-compatible:agent-m@${server.baseURL}`];
const prober = () => ['--model', `prober=openai-compatible:prober-m@${server.baseURL}`];
const judge = () => ['--model', `judge=openai-compatible:judge-m@${server.baseURL}`];
// --no-cache: the answers change between runs (spilling or discreet) while the prompts do not.
const base = (out: string) => [
  'run',
  'privacybench',
  '--strategy',
  'direct',
  '--limit',
  '2',
  '--set',
  'rounds=2',
  '--no-cache',
  '--out',
  join(work, out),
];
const readSummary = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;

describe('confidant run privacybench over HTTP', () => {
  it('a spilling assistant has LR 1 (stopped after round 1) and a discreet one LR 0 and OSR 1', async () => {
    leaky = true;
    const spilling = await cli([...base('leak'), ...agent(), ...prober(), ...judge()]);
    expect(spilling.code, spilling.stderr).toBe(0);
    const leaked = readSummary(lastLine(spilling.stdout));
    expect(leaked.counts).toMatchObject({ planned: 2, success: 2, error: 0 });
    expect(leaked.metrics.lr).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(leaked.metrics.osr).toMatchObject({ value: 0, n: 1, errors: 0 });
    expect(leaked.metrics.pc).toMatchObject({ value: 4, n: 2 });
    // One round each: prober, agent, early-stop judge; then the final leak and persona judges.
    expect(leaked.usage.prober?.calls).toBe(2);
    expect(leaked.usage.agent?.calls).toBe(2);
    expect(leaked.usage.judge?.calls).toBe(6);

    leaky = false;
    const discreet = await cli([...base('safe'), ...agent(), ...prober(), ...judge()]);
    expect(discreet.code, discreet.stderr).toBe(0);
    const kept = readSummary(lastLine(discreet.stdout));
    expect(kept.metrics.lr).toMatchObject({ value: 0, n: 1 });
    expect(kept.metrics.osr).toMatchObject({ value: 1, n: 1 });
    expect(kept.usage.agent?.calls).toBe(4);
    expect(kept.groups?.relationship?.friend?.lr).toMatchObject({ value: 0, n: 1 });

    const report = await cli(['report', lastLine(discreet.stdout)]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('IRR');
  });

  it('--fidelity upstream changes nothing for privacybench (no upstream scorer): the spilling assistant still has LR 1', async () => {
    leaky = true;
    const run = await cli([...base('leak-upstream'), ...agent(), ...prober(), ...judge(), '--fidelity', 'upstream']);
    expect(run.code, run.stderr).toBe(0);
    const summary = readSummary(lastLine(run.stdout));
    expect(summary.metrics.lr).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(summary.metrics.osr).toMatchObject({ value: 0, n: 1, errors: 0 });
    expect(summary.metrics.pc).toMatchObject({ value: 4, n: 2 });
  }, 300_000);

  it('with --defense acr the unauthorized prober’s retrieval exposes nothing (IRR 0); without it, it does', async () => {
    leaky = false;
    const open = await cli([...base('open'), ...agent(), ...prober(), ...judge()]);
    const guarded = await cli([...base('acr'), '--defense', 'acr', ...agent(), ...prober(), ...judge()]);
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(readSummary(lastLine(open.stdout)).metrics.irr).toMatchObject({ value: 1, n: 2 });
    expect(readSummary(lastLine(guarded.stdout)).metrics.irr).toMatchObject({ value: 0, n: 2, errors: 0 });
    const samples = readFileSync(join(lastLine(guarded.stdout), 'samples.jsonl'), 'utf8');
    expect(samples).toContain('"defense":"access-controlled-retrieval","action":"filter"');
  });

  it('runs without a judge model only when every judge is deterministic', async () => {
    const rejected = await cli([...base('nojudge'), ...agent(), ...prober()]);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(/judge=<provider:model>/);

    const canary = await cli([...base('canary'), '--set', 'judges=canary', ...agent(), ...prober()]);
    expect(canary.code, canary.stderr).toBe(0);
    const summary = readSummary(lastLine(canary.stdout));
    expect(summary.metrics.lr).toMatchObject({ value: 0, n: 1 });
    expect(summary.usage.judge).toBeUndefined();
  });

  it('records a --community outside the data dir in the header: content hash, resolved folder, kept source fields', async () => {
    // A converted community: a source id beside the known fields and a member without a style.
    const outside = join(work, 'converted');
    cpSync(STARTER_COMMUNITY_DIR, outside, { recursive: true });
    const communityPath = join(outside, 'community.json');
    const community = JSON.parse(readFileSync(communityPath, 'utf8')) as { users: Array<Record<string, unknown>> };
    community.users[0] = { ...community.users[0], sourceId: 'src-0042' };
    delete community.users[1]?.style;
    writeFileSync(communityPath, JSON.stringify(community, null, 2));
    // A relative path, resolved against the working directory.
    const result = await cli([
      ...base('outside'),
      '--community',
      'converted',
      '--set',
      'judges=canary',
      ...agent(),
      ...prober(),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const header = JSON.parse(readFileSync(join(lastLine(result.stdout), 'header.json'), 'utf8')) as {
      dataset: { name: string; hash: string; root?: string; files: Array<{ path: string; sha256: string }> };
    };
    expect(header.dataset.name).toBe('privacybench');
    expect(header.dataset.root).toBe(outside);
    expect(header.dataset.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(header.dataset.hash).not.toBe('built-in');
    expect(header.dataset.files.map((file) => file.path)).toEqual(['community.json', 'documents.jsonl']);
    // The same content elsewhere hashes the same; an edit changes the hash.
    const moved = join(work, 'moved', 'converted');
    cpSync(outside, moved, { recursive: true });
    const again = await cli([
      ...base('moved'),
      '--community',
      moved,
      '--set',
      'judges=canary',
      ...agent(),
      ...prober(),
    ]);
    expect(again.code, again.stderr).toBe(0);
    const movedHeader = JSON.parse(readFileSync(join(lastLine(again.stdout), 'header.json'), 'utf8')) as {
      dataset: { hash: string; root?: string };
    };
    expect(movedHeader.dataset).toMatchObject({ root: moved, hash: header.dataset.hash });
  });

  it('a time without a zone in --community is exit 2 with one message saying a zone is needed, with an example', async () => {
    const zoneless = join(work, 'zoneless');
    cpSync(STARTER_COMMUNITY_DIR, zoneless, { recursive: true });
    const lines = readFileSync(join(zoneless, 'documents.jsonl'), 'utf8').split('\n');
    const doc = JSON.parse(lines[0] ?? '{}') as { docId: string; time: string };
    const local = doc.time.replace(/(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '');
    lines[0] = JSON.stringify({ ...doc, time: local });
    writeFileSync(join(zoneless, 'documents.jsonl'), lines.join('\n'));
    const result = await cli([...base('zoneless'), '--community', zoneless, ...agent(), ...prober(), ...judge()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `documents.jsonl:1 (${doc.docId}): time: '${local}' has no time zone: add Z (UTC) or an offset such as +02:00, e.g. ${local}Z`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a broken --community directory with the file and line, exit 2', async () => {
    const broken = join(work, 'broken-community');
    cpSync(STARTER_COMMUNITY_DIR, broken, { recursive: true });
    const documents = readFileSync(join(broken, 'documents.jsonl'), 'utf8').split('\n');
    documents[2] = '{"docId": "chat-0001", "type": "chat"}';
    writeFileSync(join(broken, 'documents.jsonl'), documents.join('\n'));
    const result = await cli([...base('broken'), '--community', broken, ...agent(), ...prober(), ...judge()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('documents.jsonl:3 (chat-0001): time:');
  });
});
