import { createThreadSummarizer } from '../../agents/thread-summarizer.js';
import type { EmitEvent, ModelRoles } from '../../spec/chat-model.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { Score } from '../../spec/score.js';
import { FILESYSTEM_TOOLSETS } from '../../tools/filesystem-tool-schemas.js';
import { estimateTokens, type PlannedCalls } from '../call-pattern.js';
import { defineSuite, type Scorer, type Suite, suiteJudges, type TemplateRef } from '../suite.js';
import { buildPacAgentPrompt, defaultPacMaxTurns, turnsForSeat } from './agent-prompt.js';
import { pacGridTable } from './grid-table.js';
import { listCustomScenarioFiles, loadCustomPacScenarios } from './load-custom-scenarios.js';
import { isBundledSplit, listPacScenarioFiles, loadPacScenarios, PAC_DATASET_NAME } from './load-scenarios.js';
import { PAC_METRIC_DEFINITIONS } from './metric-definitions.js';
import { PAC_HEADLINE, pacMetrics } from './metrics.js';
import { pacCharts } from './pac-charts.js';
import { PacEpisodeError } from './pac-episode-error.js';
import type { PacOutput } from './pac-output.js';
import { checkPacSeats, resolvePacSeats, seatAssignments, seatCandidates, seatLabel, seatRole } from './pac-seats.js';
import type { PacVariantOptions } from './pac-variant.js';
import { PAC_PRESETS } from './presets.js';
import { pacRecipientTable } from './recipient-table.js';
import { parseReferenceSpec } from './reference-agents.js';
import type { PacScenario } from './scenario-schema.js';
import { simulatePacEpisode } from './simulate-episode.js';
import { loadBuiltInScenarios } from './starter.js';
import { PAC_UPSTREAM_OPTIONS, type PacSuiteOptions, pacSuiteOptionsSchema } from './suite-options.js';
import { findPacVariant } from './variants.js';

/** How the suite scores one episode: the PAC judges (`judges/`), injected so tests can stub them. */
export type PacEpisodeScorer = (options: {
  scenario: PacScenario;
  output: PacOutput;
  options: PacSuiteOptions;
  models: ModelRoles;
  emit: EmitEvent;
  signal: AbortSignal;
  variantOptions: PacVariantOptions;
}) => Promise<Score[]>;

function variantOptionsOf(options: PacSuiteOptions): PacVariantOptions {
  return { privacyFreeMode: options.privacyFreeMode, keepPolicyList: options.keepPolicyList };
}

/** Seats that play under the options' variant: the initiator alone under a standalone protocol. */
function playingSeats(options: PacSuiteOptions) {
  const protocol = findPacVariant(options.variant).protocol(variantOptionsOf(options));
  return (scenario: PacScenario) => (protocol.kind === 'standalone' ? 1 : scenario.agents.length);
}

/**
 * The model calls of one PAC episode: each model seat plays its share of the global turns
 * (round-robin) with at most `maxModelCallsPerTurn` calls a turn and at least one call; a thread
 * may be summarised once per call at most (by the `summarizer` role, else by the seat's own
 * model); LLM judges make a number of calls that depends on the transcript (messages,
 * requirements, policies), so it has no bound before the run. A seat's prompt grows from its
 * system prompt and first message up to the summarisation threshold. Reference seats call nothing.
 */
function pacCallPattern({
  sample,
  scenario,
  options,
  bound,
  judged,
}: {
  sample: { variant: Record<string, string> };
  scenario: PacScenario;
  options: PacSuiteOptions;
  bound: (role: string) => readonly string[];
  judged: boolean;
}): PlannedCalls[] {
  const variant = findPacVariant(options.variant);
  const protocol = variant.protocol(variantOptionsOf(options));
  const seatCount = playingSeats(options)(scenario);
  const maxTurns =
    protocol.kind === 'standalone' ? protocol.maxTurns : (options.maxTurns ?? defaultPacMaxTurns(seatCount));
  const summarizer = bound('summarizer').length > 0;
  const calls: PlannedCalls[] = [];
  scenario.agents.slice(0, seatCount).forEach((agent, seat) => {
    let role = seatRole(agent.id);
    let spec: string | undefined;
    if (options.seats.length > 0) {
      const label = sample.variant[agent.id];
      const chosen = seatCandidates({ agentId: agent.id, bindings: options.seats }).find(
        (candidate) => seatLabel(candidate.spec) === label,
      );
      if (chosen === undefined || parseReferenceSpec(chosen.spec) !== undefined) return;
      role = chosen.role;
      spec = chosen.spec;
    }
    const prompt = buildPacAgentPrompt({
      scenario,
      agentId: agent.id,
      variant,
      variantOptions: variantOptionsOf(options),
      maxTurns,
    });
    const most = turnsForSeat({ maxTurns, seat, seatCount }) * options.maxModelCallsPerTurn;
    const inputTokens = {
      min: estimateTokens(`${prompt.system}\n${prompt.firstMessage ?? prompt.continuation ?? ''}`),
      max: Math.max(options.summarizeAtTokens, estimateTokens(prompt.system)),
    };
    const target = spec === undefined ? { role } : { role, spec };
    calls.push({ ...target, count: { min: 1, expected: null, max: most }, inputTokens });
    calls.push({
      // Without a summarizer (or judge) model the seat's own model summarises its thread.
      role: 'summarizer',
      ...(summarizer || spec === undefined ? {} : { spec }),
      count: { min: 0, expected: null, max: most },
      inputTokens: { min: options.summaryKeepTokens, max: options.summarizeAtTokens },
    });
  });
  if (judged) calls.push({ role: 'judge', count: { min: 0, expected: null, max: null } });
  return calls;
}

/**
 * Defines the `pac` suite (pacbench.md) around an episode scorer and the judge templates it renders. Samples are
 * scenario × seat assignment (the cross product of each seat's `--model`/`--grid` bindings;
 * variant keys `agent_<x>` = model label) × the chosen protocol variant (key `variant`) × epoch.
 * `solve` simulates one episode; an episode that ended in an error throws a
 * {@link PacEpisodeError}, so the record is an error that keeps its partial output and the
 * failing participant.
 */
export function definePacSuite({
  score,
  templates,
}: {
  score: PacEpisodeScorer;
  /** The LLM judge templates `score` renders under the options (none for deterministic judges). */
  templates: (options: PacSuiteOptions) => readonly TemplateRef[];
}): Suite {
  const scorer: Scorer<PacScenario, PacOutput, PacSuiteOptions> = {
    id: 'pac',
    version: 1,
    templates,
    score: ({ scenario, options, output, models, emit, signal }) =>
      score({ scenario, output, options, models, emit, signal, variantOptions: variantOptionsOf(options) }),
  };
  // Only LLM judges declare templates, so none means every judge in use is deterministic.
  const judged = (options: PacSuiteOptions) => suiteJudges({ scorers: [scorer], options }).length > 0;
  return defineSuite<PacScenario, PacOutput, PacSuiteOptions>({
    id: 'pac',
    version: 1,
    description:
      'PAC-Bench: agents with private memories and privacy policies collaborate on one deliverable (task × privacy).',
    taskKind: 'collaboration-turn',
    options: pacSuiteOptionsSchema,
    seats: true,
    flags: [
      { flag: '--split', key: 'split' },
      { flag: '--domain', key: 'domains' },
      { flag: '--scenarios', key: 'scenarios' },
      { flag: '--variant', key: 'variant' },
      { flag: '--tools', key: 'tools' },
      { flag: '--errors', key: 'errors' },
    ],
    presets: PAC_PRESETS,
    upstreamOptions: PAC_UPSTREAM_OPTIONS,
    roles: (options) => {
      const judge = judged(options);
      return {
        required: [...(options.seats.length === 0 ? ['agent'] : []), ...(judge ? ['judge'] : [])],
        optional: ['agent', 'agent-a', 'agent-b', 'summarizer', ...(judge ? [] : ['judge'])],
      };
    },
    dataset: {
      name: PAC_DATASET_NAME,
      files: ({ dataDir, options }) =>
        options.scenarios !== undefined
          ? listCustomScenarioFiles(options.scenarios)
          : isBundledSplit(options.split)
            ? []
            : listPacScenarioFiles({
                dataDir,
                split: options.split,
                ...(options.domains === undefined ? {} : { domains: options.domains }),
              }).map((ref) => ref.path),
      async load({ dataDir, options, warn }) {
        const domains = options.domains === undefined ? {} : { domains: options.domains };
        const scenarios =
          options.scenarios !== undefined
            ? loadCustomScenarios({ path: options.scenarios, domains: options.domains, warn })
            : isBundledSplit(options.split)
              ? await loadBuiltInScenarios({ split: options.split, ...domains })
              : await loadPacScenarios({
                  dataDir,
                  split: options.split,
                  ...domains,
                  onNotice: (notice) =>
                    warn?.(`${notice.file}: ${notice.path}: ${notice.message}, so it can never be detected`),
                });
        checkPacSeats({ scenarios, bindings: options.seats, seatCount: playingSeats(options) });
        // Fail at plan time, not in every sample, when the fidelity server is not installed.
        if (options.tools === 'mcp-server') {
          const { resolveFilesystemServerEntry } = await import('../../tools/spawned-filesystem-server.js');
          await resolveFilesystemServerEntry();
        }
        return scenarios;
      },
      id: (scenario) => scenario.id,
      variants: ({ scenario, options }) =>
        seatAssignments({ scenario, bindings: options.seats, seatCount: playingSeats(options)(scenario) }).map(
          (seats) => ({ ...seats, variant: options.variant }),
        ),
    },
    async solve({ sample, scenario, options, models, emit, signal }) {
      const variant = findPacVariant(options.variant);
      const seats = resolvePacSeats({
        scenario,
        variant: sample.variant,
        bindings: options.seats,
        models,
        seatCount: playingSeats(options)(scenario),
      });
      const summarizer = models.has('summarizer') ? models.model('summarizer') : undefined;
      const episode = await simulatePacEpisode({
        scenario,
        variant,
        variantOptions: variantOptionsOf(options),
        seats,
        limits: {
          ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
          maxModelCallsPerTurn: options.maxModelCallsPerTurn,
          maxToolCallsPerTurn: options.maxToolCallsPerTurn,
          toolRetries: options.toolRetries,
        },
        tools: { mode: options.tools, names: FILESYSTEM_TOOLSETS[options.toolset], timeoutMs: options.toolTimeoutMs },
        compactThread: (seat) =>
          seat.kind === 'model'
            ? createThreadSummarizer({
                model: summarizer ?? seat.model,
                atTokens: options.summarizeAtTokens,
                keepTokens: options.summaryKeepTokens,
              })
            : undefined,
        keywordMatch: options.keywordMatch,
        emit,
        signal,
      });
      if (episode.failure !== undefined)
        throw new PacEpisodeError({ failure: episode.failure, output: episode.output });
      return {
        output: episode.output,
        input: {
          prompts: episode.prompts.map((prompt) => ({
            agentId: prompt.agentId,
            system: prompt.system,
            firstMessage: prompt.firstMessage,
            continuation: prompt.continuation,
            templates: prompt.templates,
          })),
        },
        terminationReason: episode.output.terminationReason,
      };
    },
    callPattern: ({ sample, scenario, options, bound }) =>
      pacCallPattern({ sample, scenario, options, bound, judged: judged(options) }),
    scorers: [scorer],
    metrics: {
      compute: ({ records, options, breakdowns }) =>
        pacMetrics({
          records,
          options: {
            errors: options.errors,
            variantOptions: variantOptionsOf(options),
            emptyGroundedRate: options.emptyGroundedRate,
          },
          ...(breakdowns === undefined ? {} : { breakdowns }),
        }),
      definitions: PAC_METRIC_DEFINITIONS,
    },
    report: {
      headline: [...PAC_HEADLINE],
      markdown: (summary) =>
        [pacGridTable(summary), pacRecipientTable(summary)].filter((part) => part !== '').join('\n'),
      charts: pacCharts,
    },
  });
}

/**
 * `--scenarios` data: loaded (every problem at once), warnings reported, then `--domain` applied;
 * a domain none of the scenarios has is refused, listing the ones they have.
 */
function loadCustomScenarios({
  path,
  domains,
  warn,
}: {
  path: string;
  domains: readonly string[] | undefined;
  warn: ((message: string) => void) | undefined;
}): PacScenario[] {
  const { scenarios, warnings } = loadCustomPacScenarios({ path });
  for (const warning of warnings) warn?.(warning);
  if (domains === undefined || domains.length === 0) return scenarios;
  const key = (name: string) =>
    name
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '_');
  const known = [...new Set(scenarios.map((scenario) => scenario.domain))].sort();
  for (const name of domains) {
    if (!known.some((domain) => key(domain) === key(name))) {
      throw new PlanValidationError(
        `unknown PAC domain '${name}' for --scenarios ${path}; its scenarios' domains are ${known.join(', ')} (the folder holding each file, or its scenario.domain label)`,
      );
    }
  }
  const wanted = new Set(domains.map(key));
  return scenarios.filter((scenario) => wanted.has(key(scenario.domain)));
}
