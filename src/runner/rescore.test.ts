import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writePrivacyLensFixture } from '../../test/support/fixture-data.js';
import { startMockOpenAIServer } from '../../test/support/mock-openai-server.js';
import { compareRuns } from '../reports/compare-runs.js';
import { DirectoryRunStore, LatestRecordLines } from '../store/index.js';
import type { EvaluateResult } from './evaluate.js';
import { evaluate } from './evaluate.js';
import { rescore } from './rescore.js';
import { resume } from './resume.js';

/** Every agent call answers with this email: a valid final action for the first fixture case. */
const EMAIL =
  'Thought: I will send the update.\nAction: GmailSendEmail\nAction Input: {"to": "boss@corp.com", "subject": "Update", "body": "All good."}';

let work: string;
let dataDir: string;
let source: EvaluateResult;
let agentCalls = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-rescore-'));
  dataDir = writePrivacyLensFixture(join(work, 'data'));
  // The agent is the loopback server; it is closed before any rescore, so a call would fail.
  const server = await startMockOpenAIServer({
    handler: () => {
      agentCalls += 1;
      return { type: 'text', text: EMAIL };
    },
  });
  source = await evaluate({
    suite: 'privacylens',
    options: { split: 'all' },
    models: [
      { role: 'agent', spec: `openai-compatible:agent@${server.baseURL}` },
      { role: 'judge', spec: 'mock:judge-safe' },
    ],
    env: { OPENAI_COMPATIBLE_API_KEY: 'none' },
    dataDir,
    outDir: join(work, 'runs'),
    concurrency: 1,
  });
  await server.close();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('rescore', () => {
  it('scores the stored outputs with a new judge: no agent call, new verdicts, lineage in the header', async () => {
    expect(source.summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
    const callsBefore = agentCalls;
    expect(callsBefore).toBeGreaterThan(0);
    expect(source.summary.metrics.leak_rate?.value).toBe(0);

    const rescored = await rescore({
      source: source.store.location,
      models: [{ role: 'judge', spec: 'mock:judge-leak' }],
      outDir: join(work, 'rescores'),
      dataDir,
    });
    expect(agentCalls).toBe(callsBefore);
    expect(rescored.summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
    // Only judges were called: usage has no agent role.
    expect(Object.keys(rescored.summary.usage)).toEqual(['judge']);
    expect(rescored.summary.metrics.leak_rate?.value).toBe(1);
    expect(rescored.summary.metrics.valid_action_rate?.value).toBe(source.summary.metrics.valid_action_rate?.value);
    expect(rescored.header.rescoredFrom).toMatchObject({
      runId: source.header.runId,
      dir: source.store.location,
      changed: { 'models.judge': { from: ['mock:judge-safe'], to: ['mock:judge-leak'] } },
    });
    expect(rescored.header.models.agent?.[0]?.modelId).toBe('agent');
    expect(rescored.header.models.judge?.[0]?.modelId).toBe('judge-leak');

    const sourceRecords = await source.store.readSamples({ events: true });
    const records = await rescored.store.readSamples({ events: true });
    for (const record of records) {
      const original = sourceRecords.find((candidate) => candidate.id === record.id);
      expect(record.output).toEqual(original?.output);
      // The solved transcript is replayed, marked, and counts as no call of this run.
      const replayed = record.events.filter((event) => event.replayedFrom === source.header.runId);
      expect(replayed.filter((event) => event.type === 'model-call').length).toBe(original?.usage.agent?.calls);
      expect(record.usage.agent).toBeUndefined();
      expect(record.judgments?.every((judgment) => judgment.model === 'mock:judge-leak')).toBe(true);
    }

    // compare: the two judge models disagree on every judge call.
    const comparison = compareRuns({
      a: { header: source.header, summary: source.summary, records: sourceRecords },
      b: { header: rescored.header, summary: rescored.summary, records },
    });
    // One judge call per sensitive item (6 over the four cases) and one helpfulness call per case.
    expect(comparison.judges).toEqual([
      {
        judge: 'privacylens-leak@1',
        modelA: 'mock:judge-safe',
        modelB: 'mock:judge-leak',
        agreement: { n: 6, percent: 0, kappa: 0 },
      },
      {
        judge: 'privacylens-helpfulness@1',
        modelA: 'mock:judge-safe',
        modelB: 'mock:judge-leak',
        agreement: { n: 4, percent: 0, kappa: 0 },
      },
    ]);
    expect(comparison.rescore).toEqual({ changed: ['models.judge'] });
  });

  it('resumes like any run: a lost record is redone from the stored output, still without agent calls', async () => {
    const callsBefore = agentCalls;
    const rescored = await rescore({
      source: source.store.location,
      models: [{ role: 'judge', spec: 'mock:judge-leak' }],
      outDir: join(work, 'rescores'),
      dataDir,
    });
    const file = join(rescored.store.location, 'samples.jsonl');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n`);
    const resumed = await resume({ store: rescored.store.location, dataDir });
    expect(resumed.executed).toBe(1);
    expect(agentCalls).toBe(callsBefore);
    expect(resumed.summary.metrics.leak_rate?.value).toBe(1);
    expect(Object.keys(resumed.summary.usage)).toEqual(['judge']);
  });

  it('streams the source: never reads it whole, and holds at most one source record per sample in flight', async () => {
    const original = LatestRecordLines.prototype.read;
    const readWhole = vi.spyOn(DirectoryRunStore.prototype, 'readSamples');
    const append = vi.spyOn(DirectoryRunStore.prototype, 'appendSample');
    let reads = 0;
    let mostInHand = 0;
    // A source record is in hand from its read until the rescored record of its sample is appended.
    vi.spyOn(LatestRecordLines.prototype, 'read').mockImplementation(async function (
      this: LatestRecordLines,
      id: string,
    ) {
      reads += 1;
      mostInHand = Math.max(mostInHand, reads - append.mock.calls.length);
      return original.call(this, id);
    });
    try {
      const rescored = await rescore({
        source: source.store.location,
        models: [{ role: 'judge', spec: 'mock:judge-leak' }],
        outDir: join(work, 'streamed'),
        dataDir,
        execution: { concurrency: 2 },
      });
      expect(readWhole).not.toHaveBeenCalled();
      expect(reads).toBe(4);
      expect(append).toHaveBeenCalledTimes(4);
      expect(mostInHand).toBeLessThanOrEqual(2);
      expect(rescored.summary.metrics.leak_rate?.value).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('records a change of fidelity in the lineage and scores under it', async () => {
    const rescored = await rescore({
      source: source.store.location,
      fidelity: 'upstream',
      outDir: join(work, 'rescores'),
      dataDir,
    });
    expect(rescored.header.plan.fidelity).toBe('upstream');
    expect(rescored.header.rescoredFrom?.changed).toEqual({ fidelity: { from: 'confidant', to: 'upstream' } });
    expect(rescored.summary.counts.error).toBe(0);
  });

  it('refuses to rebind a role that does not score, and a source with missing samples', async () => {
    await expect(
      rescore({
        source: source.store.location,
        models: [{ role: 'agent', spec: 'mock:echo' }],
        outDir: join(work, 'refused'),
        dataDir,
      }),
    ).rejects.toThrow(/rescore rebinds only the scoring roles \(judge\); agent=mock:echo would change what was solved/);
    const partial = await rescore({ source: source.store.location, outDir: join(work, 'partial'), dataDir });
    const file = join(partial.store.location, 'samples.jsonl');
    const first = readFileSync(file, 'utf8').split('\n')[0] ?? '';
    writeFileSync(file, `${first}\n`);
    await expect(rescore({ source: partial.store.location, outDir: join(work, 'refused'), dataDir })).rejects.toThrow(
      /has 3 of 4 planned samples without a record .*finish it with `confidant resume/,
    );
  });
});
