import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { requestStructuredReply, writeFileAtomic } from '../../../generation/index.js';
import type { BoundModel, ModelRoles } from '../../../spec/chat-model.js';
import { PlanValidationError, RunInterruptedError } from '../../../spec/errors.js';
import { makeDirectory } from '../../../spec/make-directory.js';
import { zodIssueText } from '../../../spec/zod-issue-text.js';
import { PAC_POLICY_TYPES } from '../scenario-schema.js';
import { assemblePacScenarioFile } from './assemble-scenario-file.js';
import {
  type PacGenerateOptions,
  type PacGenerationUnit,
  pacGeneratedDataDir,
  pacGenerateOptionsSchema,
  pacGenerationUnits,
} from './generate-options.js';
import type { PacGenerateEvent, PacGenerationContext } from './generation-context.js';
import { openPacGenerationJournal, type PacUnitRecord } from './generation-journal.js';
import { agentKey, pacGenerationPromptVersions } from './generation-prompts.js';
import type { PacGenerationStage } from './pac-rule-issue.js';
import { loadProblem, type PacUnitOutcome, runUnit } from './run-unit.js';
import { runScenarioStage } from './scenario-stage.js';

/** A unit given up after its attempts, with the rules its last attempt broke. */
export type PacRejectedUnit = {
  /** `change/Banks/policy_0`. */
  unit: string;
  stage: PacGenerationStage;
  agent?: string;
  /** The reasons joined with `; `. */
  reason: string;
  reasons: string[];
};

/** What a generation produced. */
export type PacGenerationResult = {
  /** Absolute paths of the scenario files of the requested units now on disk, in unit order. */
  written: string[];
  rejected: PacRejectedUnit[];
  /** Units finished in an earlier session (taken from the journal, no model call). */
  resumed: number;
  /** Datagen model calls made in this session. */
  calls: number;
  /** The output folder (absolute). */
  outDir: string;
  /** The `--data-dir` that loads the files, or `null` when `outDir` is not `<dataDir>/pacbench/scenarios`. */
  dataDir: string | null;
};

/**
 * Options of {@link generatePacScenarios}: the generation options (see `pacGenerateOptionsSchema`;
 * `domains` and `outDir` are required, the rest default) plus the models and hooks.
 */
export type GeneratePacScenariosOptions = Pick<PacGenerateOptions, 'domains' | 'outDir'> &
  Partial<Omit<PacGenerateOptions, 'domains' | 'outDir'>> & {
    /** The `datagen` role (or `generator`, its alias inside generate commands) must be bound. */
    models: ModelRoles;
    emit?: (event: PacGenerateEvent) => void;
    signal?: AbortSignal;
  };

/** `complete`: every unit written; `partial`: some rejected; `failed`: nothing written (exit non-zero). */
export function pacGenerationOutcome(result: PacGenerationResult): 'complete' | 'partial' | 'failed' {
  if (result.written.length === 0) return 'failed';
  return result.rejected.length === 0 ? 'complete' : 'partial';
}

function datagenModel(models: ModelRoles): BoundModel {
  if (models.has('datagen')) return models.model('datagen');
  if (models.has('generator')) return models.model('generator');
  throw new PlanValidationError('generate pac needs a datagen model: add --model datagen=<provider:model>');
}

function parseOptions(input: Omit<GeneratePacScenariosOptions, 'models' | 'emit' | 'signal'>): PacGenerateOptions {
  const parsed = pacGenerateOptionsSchema.safeParse(input);
  if (parsed.success) return { ...parsed.data, outDir: resolve(parsed.data.outDir) };
  const problems = parsed.error.issues.map(
    (entry) => `${entry.path.join('.') || 'options'}: ${zodIssueText({ issue: entry, input })}`,
  );
  throw new PlanValidationError(`invalid generate pac options: ${problems.join('; ')}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function isComplete(record: PacUnitRecord, agents: number): boolean {
  if (record.scenario === undefined || record.requirements === undefined) return false;
  for (let index = 0; index < agents; index += 1) {
    if (!record.memory.has(agentKey(index)) || !record.constraint.has(agentKey(index))) return false;
  }
  return true;
}

/**
 * Generates PAC-Bench scenarios (pacbench.md §11) into `<outDir>/<change|range>/<Domain>/policy_<k>.json`,
 * the layout the suite loads from `<dataDir>/pacbench/scenarios` (so `outDir` =
 * `<dataDir>/pacbench/scenarios` loads with `--data-dir <dataDir>`).
 *
 * Each unit runs the four stages (scenario in batches per domain and type, then requirements,
 * memories per agent, constraint per agent) with structured output and the rule checks after each
 * stage; only the failing stage of the failing agent is regenerated, at most `maxAttempts` times,
 * then the unit is rejected with its reasons. Every accepted stage output and every finished or
 * rejected unit is journaled in `<outDir>/.generate/`, so a killed generation continues where it
 * stopped, and a rerun with the same options makes no model call for what is done (a finished
 * unit whose file was deleted is rewritten from the journal; an existing file is never
 * overwritten, so hand edits survive).
 *
 * Throws `PlanValidationError` for bad options or a missing datagen role, `GenerationError`
 * when `outDir` holds a generation with other settings, `RunInterruptedError` when `signal`
 * aborts (after in-flight work settles; everything accepted so far is kept), and provider or
 * budget errors unchanged. Nothing is thrown for rejected units: see {@link pacGenerationOutcome}.
 */
export async function generatePacScenarios(input: GeneratePacScenariosOptions): Promise<PacGenerationResult> {
  const { models, emit, signal, ...settings } = input;
  const options = parseOptions(settings);
  const model = datagenModel(models);
  const journal = await openPacGenerationJournal({
    outDir: options.outDir,
    plan: {
      formatVersion: 1,
      seed: options.seed,
      agents: options.agents,
      requirementCount: options.requirementCount,
      prompts: pacGenerationPromptVersions(),
      datagenModel: `${model.provider}:${model.modelId}`,
    },
  });
  // Both type folders exist so that the suite's `--split all` finds a (possibly empty) folder for each.
  for (const type of PAC_POLICY_TYPES) await makeDirectory(join(options.outDir, type));

  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  if (signal?.aborted) stop.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const limit = pLimit(options.concurrency);
  let calls = 0;
  const context: PacGenerationContext = {
    options,
    journal,
    signal: stop.signal,
    emit: (event) => emit?.(event),
    ask: (request) =>
      limit(async () => {
        stop.signal.throwIfAborted();
        const reply = await requestStructuredReply({
          model,
          ...request,
          seed: options.seed,
          maxParseRetries: options.maxParseRetries,
          signal: stop.signal,
        });
        calls += reply.calls;
        return reply;
      }),
  };

  const units = pacGenerationUnits(options);
  const outcomes = new Map<string, PacUnitOutcome>();
  let resumed = 0;
  const toRun: PacGenerationUnit[] = [];
  for (const unit of units) {
    const record = journal.unit(unit.id);
    if (record.done !== undefined && isComplete(record, options.agents)) {
      const path = join(options.outDir, record.done);
      if (!(await exists(path))) await rewrite({ record, unit, path, agents: options.agents });
      resumed += 1;
      outcomes.set(unit.id, { status: 'written', file: record.done });
      context.emit({ type: 'unit-resumed', unit: unit.id, file: record.done });
    } else if (record.rejected !== undefined && record.rejected.attempts >= options.maxAttempts) {
      const { stage, agent, reasons } = record.rejected;
      outcomes.set(unit.id, { status: 'rejected', stage, reasons, ...(agent === undefined ? {} : { agent }) });
      context.emit({ type: 'unit-rejected', unit: unit.id, stage, reasons, ...(agent === undefined ? {} : { agent }) });
    } else {
      toRun.push(unit);
    }
  }

  const failures: unknown[] = [];
  const guard = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      failures.push(error);
      stop.abort(error);
    }
  };
  const groups = new Map<string, PacGenerationUnit[]>();
  for (const unit of toRun) {
    const key = `${unit.policyType}/${unit.domain}`;
    groups.set(key, [...(groups.get(key) ?? []), unit]);
  }
  try {
    await Promise.all(
      [...groups.values()].map((group) =>
        guard(async () => {
          const records = new Map(group.map((unit) => [unit.id, journal.unit(unit.id)]));
          const needScenario = group.filter((unit) => records.get(unit.id)?.scenario === undefined);
          const existing = [...siblingDrafts({ group, units, journal, needScenario })];
          const scenarioOutcomes = await runScenarioStage({ context, units: needScenario, records, existing });
          await Promise.all(
            group.map((unit) =>
              guard(async () => {
                const scenarioOutcome = scenarioOutcomes.get(unit.id);
                if (scenarioOutcome !== undefined && !scenarioOutcome.ok) {
                  outcomes.set(unit.id, { status: 'rejected', stage: 'scenario', reasons: scenarioOutcome.reasons });
                  return;
                }
                outcomes.set(unit.id, await runUnit({ context, unit, record: journal.unit(unit.id) }));
              }),
            ),
          );
        }),
      ),
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw new RunInterruptedError('PAC scenario generation was interrupted; rerun it to continue');
  if (failures.length > 0) throw failures[0];

  const written: string[] = [];
  const rejected: PacRejectedUnit[] = [];
  for (const unit of units) {
    const outcome = outcomes.get(unit.id);
    if (outcome?.status === 'written') written.push(join(options.outDir, outcome.file));
    else if (outcome?.status === 'rejected') {
      rejected.push({
        unit: unit.id,
        stage: outcome.stage,
        ...(outcome.agent === undefined ? {} : { agent: outcome.agent }),
        reason: outcome.reasons.join('; '),
        reasons: outcome.reasons,
      });
    }
  }
  return { written, rejected, resumed, calls, outDir: options.outDir, dataDir: pacGeneratedDataDir(options.outDir) };
}

/** Accepted drafts of the group's domain and type that new scenarios must differ from, in unit order. */
function* siblingDrafts({
  group,
  units,
  journal,
  needScenario,
}: {
  group: readonly PacGenerationUnit[];
  units: readonly PacGenerationUnit[];
  journal: { unit(unit: string): PacUnitRecord };
  needScenario: readonly PacGenerationUnit[];
}) {
  const first = group[0];
  if (first === undefined) return;
  const pending = new Set(needScenario.map((unit) => unit.id));
  for (const unit of units) {
    if (unit.policyType !== first.policyType || unit.domain !== first.domain || pending.has(unit.id)) continue;
    const draft = journal.unit(unit.id).scenario;
    if (draft !== undefined) yield draft;
  }
}

/** Rewrites a finished unit's file from its journaled stage outputs (the file was deleted). */
async function rewrite({
  record,
  unit,
  path,
  agents,
}: {
  record: PacUnitRecord;
  unit: PacGenerationUnit;
  path: string;
  agents: number;
}): Promise<void> {
  const keys = Array.from({ length: agents }, (_, index) => agentKey(index));
  const scenario = record.scenario;
  if (scenario === undefined) throw new Error(`journaled unit ${unit.id} has no scenario`);
  const file = assemblePacScenarioFile({
    scenario,
    requirements: record.requirements ?? [],
    memories: keys.map((key) => record.memory.get(key)),
    constraints: keys.map((key) => record.constraint.get(key)),
  });
  const problem = loadProblem(file, unit);
  if (problem !== undefined) throw new Error(`journaled unit ${unit.id} no longer assembles: ${problem}`);
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}
