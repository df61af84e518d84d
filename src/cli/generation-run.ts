import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GENERATION_DIR } from '../generation/index.js';
import {
  createEventRecorder,
  planHash,
  softwareVersions,
  sumUsageByRole,
  totalCost,
  usageFromEvents,
} from '../runner/index.js';
import type { EmitEvent } from '../spec/chat-model.js';
import { makeDirectory } from '../spec/make-directory.js';
import type { ModelDescription, RoleBinding } from '../spec/model-spec.js';
import { runPlanSchema } from '../spec/run-plan.js';
import { FORMAT_VERSION, type RunHeader, type RunSummary, type SampleRecord } from '../spec/run-record.js';
import { DirectoryRunStore } from '../store/index.js';

/** The run directory of a generation, inside its journal folder: `<out>/.generate/run`. */
export function generationRunDir(outDir: string): string {
  return join(outDir, GENERATION_DIR, 'run');
}

/** How one generation session ended, as its record keeps it. */
export type GenerationSessionEnd = {
  status: 'ok' | 'error';
  output: unknown;
  error?: { name: string; message: string };
  /** `complete` only when the generation wrote everything it was asked for. */
  complete: boolean;
  stopReason?: string;
};

/**
 * Opens the run directory of a generation (`kind: generation` in its header), creating it on
 * the first session. Every model call of this session is recorded through `emit`; `finish`
 * appends the session as one record (`session-<n>`, with its events and usage) and rewrites
 * `summary.json` with the usage and cost of every session, so `confidant report` reads it like
 * any run.
 */
export async function openGenerationRun({
  outDir,
  generator,
  version,
  flags,
  bindings,
  modelSettings,
  models,
}: {
  outDir: string;
  generator: string;
  /** The suite version of the generator's suite. */
  version: number;
  flags: Record<string, unknown>;
  bindings: RoleBinding[];
  modelSettings: Record<string, Record<string, unknown>>;
  models: Record<string, ModelDescription[]>;
}): Promise<{ store: DirectoryRunStore; emit: EmitEvent; finish(end: GenerationSessionEnd): Promise<void> }> {
  const directory = generationRunDir(outDir);
  // One record per session, not a hot path: it is checked in full before it is written.
  const store = new DirectoryRunStore(directory, { validate: true });
  const exists = await stat(join(directory, 'header.json')).catch(() => null);
  let header: RunHeader;
  if (exists === null) {
    await makeDirectory(directory);
    const plan = runPlanSchema.parse({
      suite: generator,
      models: bindings,
      modelSettings,
      seed: typeof flags.seed === 'number' ? flags.seed : 0,
    });
    const now = new Date();
    header = {
      formatVersion: FORMAT_VERSION,
      runId: `generate-${generator}-${now.toISOString().replace(/[:.]/g, '-')}`,
      kind: 'generation',
      generation: { generator, flags, outDir },
      createdAt: now.toISOString(),
      ...softwareVersions(),
      plan,
      planHash: planHash(plan),
      suite: { id: generator, version },
      dataset: { name: `${generator} generation`, files: [], hash: '' },
      models,
      judges: [],
      defenses: [],
      sampleIds: [],
    };
    await store.writeHeader(header);
  } else {
    header = await store.readHeader();
  }
  const recorder = createEventRecorder();
  const startedAt = new Date().toISOString();
  return {
    store,
    emit: recorder.emit,
    async finish(end) {
      const earlier = await store.readSamples({ events: false, history: true });
      const record: SampleRecord = {
        id: `session-${earlier.length + 1}`,
        scenarioId: generator,
        variant: {},
        epoch: 0,
        seed: header.plan.seed,
        status: end.status,
        startedAt,
        finishedAt: new Date().toISOString(),
        attempt: 1,
        output: end.output ?? null,
        scores: [],
        events: recorder.events,
        usage: usageFromEvents(recorder.events),
        ...(end.error === undefined ? {} : { error: end.error }),
      };
      await store.appendSample(record);
      const records = [...earlier, record];
      const usage = sumUsageByRole(records.map((entry) => entry.usage));
      const errorsByName: Record<string, number> = {};
      for (const entry of records) {
        if (entry.error !== undefined) errorsByName[entry.error.name] = (errorsByName[entry.error.name] ?? 0) + 1;
      }
      const summary: RunSummary = {
        formatVersion: FORMAT_VERSION,
        runId: header.runId,
        finishedAt: record.finishedAt,
        complete: end.complete,
        ...(end.stopReason === undefined ? {} : { stopReason: end.stopReason }),
        counts: {
          planned: records.length,
          success: records.filter((entry) => entry.status === 'ok').length,
          error: records.filter((entry) => entry.status === 'error').length,
          missing: 0,
        },
        metrics: {},
        usage,
        costUsd: totalCost(usage),
        errorsByName,
      };
      await store.writeSummary(summary);
    },
  };
}
