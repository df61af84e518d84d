import { existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { PlanValidationError } from '../spec/errors.js';
import type { RunHeader, SampleRecord } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { openRecordLines, type RecordLine, readRecordLine } from './index-record-lines.js';

/** What `mergeRuns` reads from each source run. */
export type RunStoreReader = Pick<RunStore, 'location' | 'readHeader' | 'readSamples'>;
/** What `mergeRuns` writes to the target run (a fresh, empty store). */
export type RunStoreWriter = Pick<RunStore, 'location' | 'writeHeader' | 'appendSample'>;

/**
 * The merged run as written to the target; the caller computes and writes its summary (e.g. with
 * the runner's `summarizeStore` over the target). `latest` is the number of distinct sample ids
 * with a record; `written` counts every record written, superseded ones included.
 */
export type MergedRun = { header: RunHeader; latest: number; written: number };

/**
 * Combines runs of one plan, typically the shards `1/n … n/n` of a sharded run, into `target`.
 *
 * Requirements (each failure is a `PlanValidationError` with one clear message):
 * - every source has the same `planHash` and dataset hash;
 * - sources are either all unsharded or all shards of the same count, each ordinal exactly once.
 *
 * The records are unioned, the last record per id winning (sources are read in shard order, then
 * argument order). Superseded records (retried errors, overlapping runs) are written too, before
 * the record that replaced them, so usage still counts every call that was made. The merged header is the first source's header without `shard`, with the new
 * `runId`, `createdAt = now`, `sampleIds` = the union and `mergedFrom` = the source run ids.
 * `sampleOrder` is the plan's full sample order (from re-expanding the plan); when given, the
 * union follows it, otherwise it follows the sources' own orders. The summary is not written here.
 *
 * Between run directories (`DirectoryRunStore` sources and target) the merge streams: each
 * source's `samples.jsonl` is read once into an index of ids and byte ranges (every line still
 * validated, a torn last line kept only when whole), then the lines are copied as they are, so
 * memory follows the number of records, not their size. Other stores are read whole.
 */
export async function mergeRuns({
  sources,
  target,
  runId,
  now = new Date(),
  sampleOrder,
}: {
  sources: RunStoreReader[];
  target: RunStoreWriter;
  runId: string;
  now?: Date;
  sampleOrder?: string[];
}): Promise<MergedRun> {
  if (sources.length === 0) throw new PlanValidationError('merge needs at least one run directory');
  const runs = await Promise.all(sources.map(async (source) => ({ source, header: await source.readHeader() })));
  checkSamePlan(runs);
  const ordered = checkShards(runs);

  const streaming =
    target instanceof DirectoryRunStore && ordered.every(({ source }) => source instanceof DirectoryRunStore);
  const { byId, seenIds } = streaming
    ? await collectVersions({
        ordered,
        read: async (source, index) =>
          (await (source as DirectoryRunStore).indexSampleLines()).map((line) => ({
            id: line.id,
            version: { source: index, line },
          })),
      })
    : await collectVersions({
        ordered,
        read: async (source) =>
          (await source.readSamples({ history: true })).map((record) => ({ id: record.id, version: record })),
      });
  const sampleIds = orderIds({ ids: seenIds, order: sampleOrder });

  const first = ordered[0]!.header;
  const { shard: _planShard, ...plan } = first.plan;
  const { shard: _headerShard, ...rest } = first;
  const header: RunHeader = {
    ...rest,
    runId,
    createdAt: now.toISOString(),
    plan,
    sampleIds,
    mergedFrom: ordered.map(({ header: source }) => source.runId),
  };
  const position = new Map(sampleIds.map((id, index) => [id, index]));
  const idsInOrder = [...byId.keys()].sort(
    (a, b) => (position.get(a) ?? Number.MAX_SAFE_INTEGER) - (position.get(b) ?? Number.MAX_SAFE_INTEGER),
  );

  await target.writeHeader(header);
  let written = 0;
  if (streaming) {
    written = await copyLines({
      files: ordered.map(({ source }) => (source as DirectoryRunStore).samplesFile),
      target: target as DirectoryRunStore,
      versions: idsInOrder.map((id) => byId.get(id) as LineVersion[]),
    });
  } else {
    for (const id of idsInOrder) {
      for (const record of byId.get(id) as SampleRecord[]) {
        await target.appendSample(record);
        written += 1;
      }
    }
  }
  return { header, latest: byId.size, written };
}

/** One record of a source as the streaming merge keeps it: which source, and where its line is. */
type LineVersion = { source: number; line: RecordLine };

/** Every version of every id, sources in order; `seenIds` as the header's order wants them. */
async function collectVersions<V>({
  ordered,
  read,
}: {
  ordered: SourceRun[];
  read: (source: RunStoreReader, index: number) => Promise<Array<{ id: string; version: V }>>;
}): Promise<{ byId: Map<string, V[]>; seenIds: string[] }> {
  const byId = new Map<string, V[]>();
  const seenIds: string[] = [];
  for (const [index, { source, header }] of ordered.entries()) {
    seenIds.push(...header.sampleIds);
    for (const { id, version } of await read(source, index)) {
      seenIds.push(id);
      const list = byId.get(id);
      if (list) list.push(version);
      else byId.set(id, [version]);
    }
  }
  return { byId, seenIds };
}

/** Lines are copied in batches of about this many characters. */
const COPY_BATCH = 1 << 20;
/** Lines read from the sources at once (positioned reads, kept in order). */
const READ_WINDOW = 256;

/** Copies the indexed lines, id by id, from the sources' files to `target`; returns how many. */
async function copyLines({
  files,
  target,
  versions,
}: {
  files: string[];
  target: DirectoryRunStore;
  versions: LineVersion[][];
}): Promise<number> {
  // Promises, so reads of one window that start together open each source once.
  const handles = new Map<number, Promise<FileHandle>>();
  const handleOf = (source: number): Promise<FileHandle> => {
    let handle = handles.get(source);
    if (handle === undefined) {
      handle = openRecordLines(files[source]!);
      handles.set(source, handle);
    }
    return handle;
  };
  let written = 0;
  let batch = '';
  let window: LineVersion[] = [];
  const flushWindow = async () => {
    const texts = await Promise.all(
      window.map(async ({ source, line }) => readRecordLine({ handle: await handleOf(source), line })),
    );
    window = [];
    for (const text of texts) {
      batch += text;
      written += 1;
      if (batch.length >= COPY_BATCH) {
        await target.appendRecordLines(batch);
        batch = '';
      }
    }
  };
  try {
    for (const list of versions) {
      for (const version of list) {
        window.push(version);
        if (window.length >= READ_WINDOW) await flushWindow();
      }
    }
    await flushWindow();
    if (batch.length > 0) await target.appendRecordLines(batch);
  } finally {
    for (const handle of handles.values()) await (await handle.catch(() => undefined))?.close();
  }
  return written;
}

type SourceRun = { source: RunStoreReader; header: RunHeader };

function checkSamePlan(runs: SourceRun[]): void {
  const describe = ({ source, header }: SourceRun) =>
    `${source.location} (suite ${header.suite.id}, plan ${header.planHash.slice(0, 12)})`;
  const first = runs[0]!;
  const other = runs.find(({ header }) => header.planHash !== first.header.planHash);
  if (other) {
    throw new PlanValidationError(
      `cannot merge runs of different plans: ${describe(first)} and ${describe(other)}; merge only the shards of one run`,
    );
  }
  const otherData = runs.find(({ header }) => header.dataset.hash !== first.header.dataset.hash);
  if (otherData) {
    throw new PlanValidationError(
      `cannot merge runs made on different data: ${first.source.location} and ${otherData.source.location} have different dataset hashes`,
    );
  }
}

/** Returns the runs in shard order after checking that every shard is present exactly once. */
function checkShards(runs: SourceRun[]): SourceRun[] {
  const sharded = runs.filter(({ header }) => header.shard !== undefined);
  if (sharded.length === 0) return runs;
  if (sharded.length !== runs.length) {
    const plain = runs.find(({ header }) => header.shard === undefined)!;
    throw new PlanValidationError(
      `cannot merge shards with an unsharded run (${plain.source.location}); pass only the shard run directories`,
    );
  }
  const count = sharded[0]!.header.shard!.count;
  const otherCount = sharded.find(({ header }) => header.shard!.count !== count);
  if (otherCount) {
    throw new PlanValidationError(
      `cannot merge shards of different shard counts: ${sharded[0]!.source.location} is one of ${count}, ${otherCount.source.location} is one of ${otherCount.header.shard!.count}`,
    );
  }
  const byIndex = new Map<number, SourceRun[]>();
  for (const run of sharded)
    byIndex.set(run.header.shard!.index, [...(byIndex.get(run.header.shard!.index) ?? []), run]);
  for (const [index, group] of byIndex) {
    if (index > count) {
      throw new PlanValidationError(
        `${group[0]!.source.location} claims shard ${index}/${count}, which does not exist`,
      );
    }
    if (group.length > 1) {
      throw new PlanValidationError(
        `shard ${index}/${count} was given ${group.length} times (${group.map(({ source }) => source.location).join(', ')}); pass each shard once`,
      );
    }
  }
  const missing = Array.from({ length: count }, (_, offset) => offset + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    const names = missing.map((index) => `${index}/${count}`).join(', ');
    throw new PlanValidationError(
      `cannot merge: shard ${names} ${missing.length === 1 ? 'is' : 'are'} missing; pass the run directories of all ${count} shards`,
    );
  }
  return [...sharded].sort((a, b) => a.header.shard!.index - b.header.shard!.index);
}

/** Unique ids, in `order` when given (unknown ids after it, first-seen), else first-seen. */
function orderIds({ ids, order }: { ids: string[]; order: string[] | undefined }): string[] {
  const unique = [...new Set(ids)];
  if (!order) return unique;
  const present = new Set(unique);
  const known = new Set(order);
  return [...order.filter((id) => present.has(id)), ...unique.filter((id) => !known.has(id))];
}

/**
 * Name of the marker file a merge keeps in its target directory until the merged run is complete
 * (summary written). A directory that still has it is a merge killed half-way.
 */
export const MERGE_INCOMPLETE_MARKER = '.merge-incomplete';

/** The user error for a half-written merge: what happened and the way out. */
export function halfWrittenMergeError(directory: string): PlanValidationError {
  return new PlanValidationError(
    `${directory} is a half-written merge (the merge was interrupted before it finished, and ${MERGE_INCOMPLETE_MARKER} is still in it); its records may be partial, so nothing reads it: delete it (rm -r ${directory}) and run confidant merge on the shards again`,
  );
}

/**
 * Refuses a half-written merge (a directory that still holds {@link MERGE_INCOMPLETE_MARKER}) with
 * {@link halfWrittenMergeError}. Every command that reads a run directory calls it first.
 */
export function refuseHalfWrittenMerge(directory: string): void {
  if (existsSync(join(directory, MERGE_INCOMPLETE_MARKER))) throw halfWrittenMergeError(directory);
}
