import type { ChainTree } from '../../orchestration/role-chain.js';
import { StoreFormatError } from '../../spec/errors.js';
import type { RunHeader } from '../../spec/run-record.js';
import type { RunStore } from '../../spec/run-store.js';
import type { Score } from '../../spec/score.js';
import {
  chainTreeSchema,
  type PrivactTreeInput,
  type PrivactTreeOptions,
  privactTreeInputSchema,
  privactTreeOptionsSchema,
  privactTreeSuite,
} from '../../suites/privacylens/index.js';

/** One judged tree read back from a run. */
export type TreeSample = {
  sampleId: string;
  caseName: string;
  epoch: number;
  tree: ChainTree;
  scores: Score[];
  /** The case facts and sampling the suite stored; null when absent or unreadable. */
  input: PrivactTreeInput | null;
};

/** A `privact-tree` run as the export reads it. */
export type TreeRun = {
  location: string;
  header: RunHeader;
  options: PrivactTreeOptions;
  /** The successful trees, in the run's planned order. */
  trees: TreeSample[];
  /** Ids of samples whose latest record is an error (no tree to export). */
  failed: string[];
  /** Planned samples with no record yet (an interrupted build: resume it first for the full data). */
  missing: string[];
};

/**
 * Reads a `privact-tree` run through its store: the header, the suite options it was built with
 * and every tree, validated (a run directory is data from disk). Never calls a model.
 * Throws `StoreFormatError` (a user error) when the run is not a `privact-tree` run, or when a
 * successful record does not hold a tree.
 */
export async function readTreeRun({ store }: { store: RunStore }): Promise<TreeRun> {
  const header = await store.readHeader();
  if (header.suite.id !== privactTreeSuite.id) {
    throw new StoreFormatError(
      `${store.location} is a '${header.suite.id}' run, not a privact-tree run: preference pairs come from \`confidant run privact-tree …\``,
    );
  }
  const parsedOptions = privactTreeOptionsSchema.safeParse(header.plan.suiteOptions);
  if (!parsedOptions.success) {
    throw new StoreFormatError(
      `${store.location}: the stored privact-tree options do not parse (${parsedOptions.error.issues[0]?.message ?? 'invalid'}); was it written by another version?`,
    );
  }
  const records = await store.readSamples({ events: false });
  const order = new Map(header.sampleIds.map((id, index) => [id, index]));
  const rank = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...records].sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
  const trees: TreeSample[] = [];
  const failed: string[] = [];
  for (const record of sorted) {
    if (record.status !== 'ok') {
      failed.push(record.id);
      continue;
    }
    const tree = chainTreeSchema.safeParse(record.output);
    if (!tree.success) {
      const issue = tree.error.issues[0];
      throw new StoreFormatError(
        `${store.location}: sample ${record.id} has no readable tree (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'})`,
      );
    }
    const input = privactTreeInputSchema.safeParse(record.input);
    trees.push({
      sampleId: record.id,
      caseName: tree.data.caseName || record.scenarioId,
      epoch: record.epoch,
      tree: tree.data,
      scores: record.scores,
      input: input.success ? input.data : null,
    });
  }
  const recorded = new Set(records.map((record) => record.id));
  return {
    location: store.location,
    header,
    options: parsedOptions.data,
    trees,
    failed,
    missing: header.sampleIds.filter((id) => !recorded.has(id)),
  };
}
