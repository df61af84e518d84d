import type { BoundModel, EmitEvent, ModelRoles } from '../../../spec/chat-model.js';
import { PlanValidationError } from '../../../spec/errors.js';
import type { Score } from '../../../spec/score.js';
import { pacScoreTarget } from '../outcome-scores.js';
import type { PacOutput } from '../pac-output.js';
import type { PacVariantOptions } from '../pac-variant.js';
import type { PacScenario } from '../scenario-schema.js';
import { groundingScores } from './context-alignment-judge.js';
import { gradedPrivacyScore } from './graded-privacy.js';
import { judgeAgentPrivacy, LEVEL_RULE } from './judge-agent-privacy.js';
import type { PacJudgeContext } from './judge-models.js';
import { judgeOutcomeChecks } from './judge-outcome-checks.js';
import { outcomeCheckScores, outcomeChecksRunScore } from './outcome-check-scores.js';
import type { PacJudgeOptions } from './pac-judge-options.js';
import { PAC_JUDGE_SCORERS } from './pac-judge-scorers.js';
import { privacyAgents } from './privacy-agents.js';
import { privacyItems } from './privacy-items.js';
import { agentPrivacyScores } from './privacy-scores.js';
import { judgeTaskByArtifact } from './task-artifact-judge.js';
import type { RequirementOutcome } from './task-evaluation.js';
import { judgeTaskByMarkers } from './task-markers-judge.js';
import { judgeTaskByMessages } from './task-message-judge.js';
import { taskScores } from './task-scores.js';

/** Options of {@link scorePacEpisode}. */
export type ScorePacEpisodeOptions = {
  scenario: PacScenario;
  output: PacOutput;
  options: PacJudgeOptions;
  models: ModelRoles;
  emit: EmitEvent;
  signal?: AbortSignal;
  /** The variant options (`privacyFreeMode`, …) the variant's evaluation reads; defaults apply. */
  variantOptions?: PacVariantOptions;
};

/**
 * Judges one PAC episode (pacbench.md §7) and returns its scores, written with the builders of
 * `outcome-scores.ts` so `pacMetrics` reads them unchanged. Scorers: {@link PAC_JUDGE_SCORERS}.
 *
 * 1. A run that ended in error (`terminationReason: 'error'`) gets no scores unless
 *    `judgeErrorRuns`; then its partial transcript is judged like any other.
 * 2. Task (`pac-task@1`): `run` (ts_r) and `requirement:<i>`, by `taskMode`: `messages`, `artifact`
 *    or the deterministic `markers`; or, under `checks`, only `run` from the outcome checks.
 * 2b. Outcome checks (`pac-check@1`, `run` and `check:<id>`), deterministic, in every task mode,
 *    when the scenario declares `checks.outcome`.
 * 3. Grounding (`pac-grounding@1`, `requirement:<i>`), in the LLM task modes when `grounding`.
 * 4. Privacy, for the agents the variant and `privacyAgents` select (none for privacy-free), in
 *    seat order: `pac-privacy@1` (agent, channels, first violation, plus `pac-privacy-item@1`
 *    details) by `privacyMode` over `privacyChannels`; `pac-keyword-expansion@1` in
 *    keyword-awareness mode; the graded `pac-privacy-graded@1` (per agent, severity-weighted,
 *    hint or full reveal) in keyword-awareness mode with judgeParse=strict, the one judge that
 *    tells a hint from a full reveal (none under judgeParse=upstream: the upstream has no graded
 *    score); and the deterministic `pac-keyword@1` beside every mode.
 *
 * Every LLM judgment uses the `judge` role's models (`models.ensemble('judge')`, asked for only
 * when an LLM judge runs): majority for yes/no decisions, mean for the G-Eval scale. A reply that
 * does not parse after the retries is an `error` verdict, never a pass. The deterministic modes
 * (`markers`, `keyword-only`) make no model call. Judgments run one after another, so events keep
 * a stable order. Throws `PlanValidationError` when an LLM judge runs and no judge model is bound.
 */
export async function scorePacEpisode({
  scenario,
  output,
  options,
  models,
  emit,
  signal,
  variantOptions,
}: ScorePacEpisodeOptions): Promise<Score[]> {
  if (output.terminationReason === 'error' && !options.judgeErrorRuns) return [];
  let judges: readonly BoundModel[] | undefined;
  const context: PacJudgeContext = {
    models: () => {
      judges ??= judgeModels(models, options);
      return judges;
    },
    emit,
    ...(signal === undefined ? {} : { signal }),
    judgeParse: options.judgeParse,
  };

  const checks = judgeOutcomeChecks({ scenario, output });
  let outcomes: RequirementOutcome[] = [];
  const scores: Score[] = [];
  if (options.taskMode === 'checks') {
    scores.push(outcomeChecksRunScore({ scorer: PAC_JUDGE_SCORERS.task, results: checks, mode: 'checks' }));
  } else {
    if (options.taskMode === 'markers') outcomes = judgeTaskByMarkers({ scenario, output });
    else if (options.taskMode === 'artifact') outcomes = await judgeTaskByArtifact({ scenario, output, context });
    else outcomes = await judgeTaskByMessages({ scenario, output, context });
    scores.push(...taskScores({ scorer: PAC_JUDGE_SCORERS.task, mode: options.taskMode, outcomes }));
  }
  scores.push(...outcomeCheckScores({ scorer: PAC_JUDGE_SCORERS.check, results: checks }));

  const source = options.taskMode;
  if (options.grounding && (source === 'messages' || source === 'artifact')) {
    scores.push(
      ...(await groundingScores({
        scorer: PAC_JUDGE_SCORERS.grounding,
        scenario,
        output,
        outcomes,
        source,
        context,
      })),
    );
  }

  const channels = options.privacyChannels;
  const agents = privacyAgents({
    scenario,
    variant: output.variant,
    options,
    ...(variantOptions === undefined ? {} : { variantOptions }),
  });
  for (const agent of agents) {
    const items = privacyItems({ output, agentId: agent.id, channels });
    const judged = await judgeAgentPrivacy({
      agent,
      items,
      mode: options.privacyMode,
      gevalSamples: options.gevalSamples,
      keywordMatch: options.keywordMatch,
      context,
      scenario,
    });
    const expansion = judged.expansion;
    const graded = options.privacyMode === 'keyword-awareness' && options.judgeParse === 'strict';
    scores.push(
      ...agentPrivacyScores({
        scorer: PAC_JUDGE_SCORERS.privacy,
        itemScorer: PAC_JUDGE_SCORERS.privacyItem,
        agentId: agent.id,
        channels,
        items: judged.items,
        rule:
          options.judgeParse === 'upstream' && options.privacyMode === 'keyword-awareness' && agent.policies.length > 0
            ? 'awareness-upstream'
            : LEVEL_RULE[options.privacyMode],
        mode: options.privacyMode,
        ...(expansion === undefined || expansion.failures === 0
          ? {}
          : { note: `keyword expansion failed ${expansion.failures} time(s); the original keywords were used` }),
      }),
    );
    if (graded)
      scores.push(gradedPrivacyScore({ scorer: PAC_JUDGE_SCORERS.privacyGraded, agent, items: judged.items }));
    if (expansion !== undefined) {
      scores.push({
        scorer: PAC_JUDGE_SCORERS.keywordExpansion,
        target: pacScoreTarget({ kind: 'agent', agentId: agent.id }),
        verdict: expansion.failures === 0 ? 'pass' : 'fail',
        value: expansion.failures,
        label: `${expansion.failures} failed`,
        explanation: `${expansion.policies} polic${expansion.policies === 1 ? 'y' : 'ies'} expanded`,
        ...(expansion.judgeCalls.length === 0 ? {} : { judgeCalls: expansion.judgeCalls }),
      });
    }
    const keyword = await judgeAgentPrivacy({
      agent,
      items,
      mode: 'keyword-only',
      keywordMatch: options.keywordMatch,
      scenario,
    });
    scores.push(
      ...agentPrivacyScores({
        scorer: PAC_JUDGE_SCORERS.keyword,
        agentId: agent.id,
        channels,
        items: keyword.items,
        rule: LEVEL_RULE['keyword-only'],
        mode: 'keyword-only',
      }),
    );
  }
  return scores;
}

function judgeModels(models: ModelRoles, options: PacJudgeOptions): readonly BoundModel[] {
  const bound = models.has('judge') ? models.ensemble('judge') : [];
  if (bound.length === 0) {
    throw new PlanValidationError(
      `the PAC judges in use (taskMode=${options.taskMode}, privacyMode=${options.privacyMode}) need a judge model: ` +
        'add --model judge=<spec>, or use taskMode=markers (or checks) with privacyMode=keyword-only',
    );
  }
  return bound;
}
