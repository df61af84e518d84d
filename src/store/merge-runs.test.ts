import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSummary } from '../runner/build-summary.js';
import { expandSamples } from '../runner/expand-samples.js';
import { runEvaluation } from '../runner/run-evaluation.js';
import { selectShard } from '../runner/shard.js';
import { type ScriptedCall, scriptedModelRoles } from '../runner/testing/scripted-model-roles.js';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { PlanValidationError } from '../spec/errors.js';
import type { RunPlanInput } from '../spec/run-plan.js';
import { toyLeakScenarios } from '../suites/toy-leak/scenarios.js';
import { toyLeakSuite } from '../suites/toy-leak/suite.js';
import { createRunDirectory } from './create-run-directory.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { InMemoryRunStore } from './in-memory-run-store.js';
import { mergeRuns } from './merge-runs.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-merge-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const allSamples = expandSamples({ suite: toyLeakSuite, scenarios: toyLeakScenarios, options: {}, epochs: 2, seed: 5 });
const allIds = allSamples.map((sample) => sample.id);

/** Leaks two of the four secrets and fails one sample, so the metrics are not trivial. */
function respond({ sampleId, request }: ScriptedCall): string {
  if (sampleId === 'payroll-salary#e2') throw new Error('provider down');
  const leaks = sampleId.startsWith('clinic') || sampleId.startsWith('vault');
  return leaks ? request.messages.map((message) => message.content).join('\n') : 'I cannot share that.';
}

async function runShard({ runId, shard }: { runId: string; shard?: { index: number; count: number } }) {
  const plan: RunPlanInput = { suite: 'toy-leak', epochs: 2, seed: 5, ...(shard ? { shard } : {}) };
  const samples = shard ? selectShard({ samples: allSamples, ...shard }) : allSamples;
  const { directory } = await createRunDirectory({ outDir: root, runId });
  const store = new DirectoryRunStore(directory);
  await store.writeHeader(testRunHeader({ runId, plan, sampleIds: samples.map((sample) => sample.id) }));
  const models = scriptedModelRoles({ respond }).factory;
  const result = await runEvaluation({
    suite: toyLeakSuite,
    options: {},
    scenarios: toyLeakScenarios,
    samples,
    store,
    models,
  });
  return { store, result };
}

describe('mergeRuns', () => {
  it('merging shards 1/2 and 2/2 gives the same ids and metrics as the unsharded run', async () => {
    const whole = await runShard({ runId: 'whole' });
    const first = await runShard({ runId: 'shard-1', shard: { index: 1, count: 2 } });
    const second = await runShard({ runId: 'shard-2', shard: { index: 2, count: 2 } });
    expect(first.result.summary.counts.planned).toBe(4);

    const { directory } = await createRunDirectory({ outDir: root, runId: 'merged' });
    const target = new DirectoryRunStore(directory);
    // Sources given out of order: the merge sorts them by shard index.
    const merged = await mergeRuns({
      sources: [second.store, first.store],
      target,
      runId: 'merged',
      now: new Date(Date.UTC(2025, 5, 1)),
      sampleOrder: allIds,
    });
    const summary = buildSummary({
      runId: 'merged',
      suite: toyLeakSuite,
      options: {},
      planned: merged.header.sampleIds,
      records: await target.readSamples(),
    });
    await target.writeSummary(summary);

    const header = await target.readHeader();
    expect(header.shard).toBeUndefined();
    expect(header.plan.shard).toBeUndefined();
    expect(header.planHash).toBe((await whole.store.readHeader()).planHash);
    expect(header.sampleIds).toEqual(allIds);
    expect(header.mergedFrom).toEqual(['shard-1', 'shard-2']);
    expect(header.createdAt).toBe('2025-06-01T00:00:00.000Z');
    expect((await target.readSamples()).map((record) => record.id)).toEqual(allIds);
    expect(summary.metrics).toEqual(whole.result.summary.metrics);
    expect(summary.metrics.leak_rate).toMatchObject({
      value: 4 / 7,
      n: 7,
      errors: 1,
      notApplicable: 0,
      stderr: Math.sqrt(((4 / 7) * (1 - 4 / 7)) / 7),
    });
    expect(summary.counts).toEqual(whole.result.summary.counts);
    expect(summary.usage).toEqual(whole.result.summary.usage);
    expect(await target.readSummary()).toEqual(summary);
  });

  it('without a sample order, keeps the sources’ own order in shard order', async () => {
    const first = await runShard({ runId: 'a', shard: { index: 1, count: 2 } });
    const second = await runShard({ runId: 'b', shard: { index: 2, count: 2 } });
    const merged = await mergeRuns({
      sources: [first.store, second.store],
      target: new InMemoryRunStore(),
      runId: 'm',
    });
    const expected = [...(await first.store.readHeader()).sampleIds, ...(await second.store.readHeader()).sampleIds];
    expect(merged.header.sampleIds).toEqual(expected);
    expect(new Set(merged.header.sampleIds)).toEqual(new Set(allIds));
  });

  it('fails clearly when a shard is missing', async () => {
    const one = await runShard({ runId: 'one', shard: { index: 1, count: 3 } });
    const three = await runShard({ runId: 'three', shard: { index: 3, count: 3 } });
    const merging = mergeRuns({ sources: [one.store, three.store], target: new InMemoryRunStore(), runId: 'm' });
    await expect(merging).rejects.toBeInstanceOf(PlanValidationError);
    await expect(merging).rejects.toThrow(
      'cannot merge: shard 2/3 is missing; pass the run directories of all 3 shards',
    );
  });

  it('fails clearly on a duplicated shard and on a mix of sharded and unsharded runs', async () => {
    const one = await runShard({ runId: 'one', shard: { index: 1, count: 2 } });
    const again = await runShard({ runId: 'again', shard: { index: 1, count: 2 } });
    await expect(
      mergeRuns({ sources: [one.store, again.store], target: new InMemoryRunStore(), runId: 'm' }),
    ).rejects.toThrow(/^shard 1\/2 was given 2 times/);
    const whole = await runShard({ runId: 'whole' });
    await expect(
      mergeRuns({ sources: [one.store, whole.store], target: new InMemoryRunStore(), runId: 'm' }),
    ).rejects.toThrow('cannot merge shards with an unsharded run');
  });

  it('fails clearly when the runs come from different plans', async () => {
    const mine = await runShard({ runId: 'mine', shard: { index: 1, count: 2 } });
    const { directory } = await createRunDirectory({ outDir: root, runId: 'other' });
    const other = new DirectoryRunStore(directory);
    await other.writeHeader(
      testRunHeader({ runId: 'other', plan: { suite: 'toy-leak', epochs: 2, seed: 6, shard: { index: 2, count: 2 } } }),
    );
    const target = new InMemoryRunStore();
    const merging = mergeRuns({ sources: [mine.store, other], target, runId: 'm' });
    await expect(merging).rejects.toBeInstanceOf(PlanValidationError);
    await expect(merging).rejects.toThrow(
      /^cannot merge runs of different plans: .*mine \(suite toy-leak, plan [0-9a-f]{12}\) and .*other/,
    );
    await expect(target.readHeader()).rejects.toThrow('no header written');
  });

  it('keeps the last record per id when unsharded runs overlap', async () => {
    const first = await runShard({ runId: 'first' });
    const second = new InMemoryRunStore();
    const header = await first.store.readHeader();
    await second.writeHeader({ ...header, runId: 'second' });
    const [original] = await first.store.readSamples();
    if (!original) throw new Error('expected a record');
    await second.appendSample({ ...original, attempt: 9 });
    const target = new InMemoryRunStore();
    const merged = await mergeRuns({ sources: [first.store, second], target, runId: 'm' });
    const records = await target.readSamples();
    expect(records).toHaveLength(allIds.length);
    expect(merged.latest).toBe(allIds.length);
    expect(records.find((record) => record.id === original.id)?.attempt).toBe(9);
    expect(merged.header.mergedFrom).toEqual(['first', 'second']);
    // The overlapped record is kept, superseded, so its calls still count in the merged usage.
    const history = await target.readSamples({ history: true });
    expect(history).toHaveLength(allIds.length + 1);
    expect(merged.written).toBe(allIds.length + 1);
    expect(history.filter((record) => record.id === original.id).map((record) => record.attempt)).toEqual([
      original.attempt,
      9,
    ]);
  });

  it('between run directories, copies every valid line as written: superseded records grouped before the winner, a whole torn tail kept with its newline, a torn fragment dropped', async () => {
    const first = await runShard({ runId: 'first' });
    const header = await first.store.readHeader();
    const [a, b] = await first.store.readSamples();
    if (!a || !b) throw new Error('expected records');
    const { directory } = await createRunDirectory({ outDir: root, runId: 'second' });
    const second = new DirectoryRunStore(directory);
    await second.writeHeader({ ...header, runId: 'second' });
    // Within one shard: a superseded record of `a`, then its retry, then `b` torn but whole
    // (no newline), followed by nothing. Lines are written by hand, as a crash would leave them.
    const lines = [JSON.stringify({ ...a, attempt: 2 }), JSON.stringify({ ...a, attempt: 3 })];
    await writeFile(join(directory, 'samples.jsonl'), `${lines.join('\n')}\n${JSON.stringify({ ...b, attempt: 7 })}`);
    const { directory: mergedDir } = await createRunDirectory({ outDir: root, runId: 'merged' });
    const target = new DirectoryRunStore(mergedDir);
    const merged = await mergeRuns({ sources: [first.store, second], target, runId: 'merged', sampleOrder: allIds });
    expect(merged).toMatchObject({ latest: allIds.length, written: allIds.length + 3 });
    const text = await readFile(join(mergedDir, 'samples.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const history = await target.readSamples({ history: true });
    expect(history.map((record) => record.id)).toEqual(
      allIds.flatMap((id) => (id === a.id ? [id, id, id] : id === b.id ? [id, id] : [id])),
    );
    expect(history.filter((record) => record.id === a.id).map((record) => record.attempt)).toEqual([a.attempt, 2, 3]);
    const latest = new Map((await target.readSamples()).map((record) => [record.id, record.attempt]));
    expect([latest.get(a.id), latest.get(b.id)]).toEqual([3, 7]);
    // The copied lines are the source lines byte for byte.
    for (const line of [...lines, JSON.stringify({ ...b, attempt: 7 })]) expect(text).toContain(`${line}\n`);

    // A fragment that is not a whole record is not copied; a malformed complete line is refused.
    await writeFile(join(directory, 'samples.jsonl'), `${lines[0]}\n{"id":"cut`);
    const { directory: again } = await createRunDirectory({ outDir: root, runId: 'again' });
    const fragment = await mergeRuns({
      sources: [first.store, second],
      target: new DirectoryRunStore(again),
      runId: 'x',
    });
    expect(fragment.written).toBe(allIds.length + 1);
    await writeFile(join(directory, 'samples.jsonl'), `{"id":"cut\n${lines[0]}\n`);
    const { directory: bad } = await createRunDirectory({ outDir: root, runId: 'bad' });
    await expect(
      mergeRuns({ sources: [first.store, second], target: new DirectoryRunStore(bad), runId: 'y' }),
    ).rejects.toThrow(/^malformed record in .*samples\.jsonl at line 1: not JSON/);
  });
});
