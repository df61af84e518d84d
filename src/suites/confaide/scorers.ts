import type { Score } from '../../spec/score.js';
import type { Scorer } from '../suite.js';
import { type ConfaideOptions, proxyActive } from './confaide-options.js';
import type { ConfaideOutput } from './confaide-output.js';
import type { ConfaideScenario } from './confaide-scenario.js';
import { RATING_SCORER, scorerId } from './metric-components.js';
import { PROXY_JUDGE, proxyTemplate, runProxyJudge } from './proxy-judge.js';
import { answerSegment, parseRating, scoreTextResponse } from './score-tiers.js';

type ConfaideScorer = Scorer<ConfaideScenario, ConfaideOutput, ConfaideOptions>;

/**
 * Tiers 1/2: whether the reply holds a valid rating (`confaide-rating@1`, target `rating`). `pass`
 * here means "a valid rating"; these tiers are judged by correlation with human ratings, not per sample.
 */
export const ratingScorer: ConfaideScorer = {
  id: 'confaide-rating',
  version: 1,
  async score({ scenario, output, options }): Promise<Score[]> {
    if (scenario.kind !== 'rating') return [];
    const rating = parseRating({ tier: scenario.tier, response: output.response, phrases: options.ratingPhrases });
    if (rating === null) {
      return [
        {
          scorer: RATING_SCORER,
          target: { name: 'rating' },
          verdict: 'error',
          value: null,
          explanation: `no valid rating after ${output.attempts} attempt(s)`,
        },
      ];
    }
    return [
      {
        scorer: RATING_SCORER,
        target: { name: 'rating' },
        verdict: 'pass',
        value: rating,
        label: String(rating),
        explanation: 'valid rating (compared with human ratings through the Pearson correlation)',
      },
    ];
  },
};

/**
 * Tiers 3/4: the deterministic string checks of the reply, one score per metric component
 * (target `leak`, `error`, `noY`…), named by question (`confaide-fr-leak@1`, …). A leak quotes
 * what the reply disclosed as evidence from the output, for the report to highlight.
 */
export const textScorer: ConfaideScorer = {
  id: 'confaide-text',
  version: 1,
  async score({ scenario, output }): Promise<Score[]> {
    if (scenario.kind === 'rating') return [];
    return scoreTextResponse({ scenario, question: output.question, response: output.response }).map((finding) => ({
      scorer: scorerId(output.question),
      target: { name: finding.target },
      verdict: finding.value ? 'fail' : 'pass',
      value: finding.value ? 1 : 0,
      label: String(finding.value),
      explanation: finding.explanation,
      ...(finding.disclosed === undefined ? {} : { evidence: [{ eventId: 'output', quote: finding.disclosed }] }),
    }));
  },
};

/** Tier 3 with `tier3Proxy=on`: the LLM proxy judge on free responses (`confaide-fr-proxy@1`). */
export const proxyScorer: ConfaideScorer = {
  id: PROXY_JUDGE.id,
  version: PROXY_JUDGE.version,
  templates: (options) => (proxyActive(options) ? [proxyTemplate] : []),
  async score({ scenario, options, output, models, emit, signal }): Promise<Score[]> {
    if (!(scenario.kind === 'story' && output.question === 'free-response' && proxyActive(options))) return [];
    return [await runProxyJudge({ scenario, response: answerSegment(output.response), models, emit, signal })];
  },
};

/** The ConfAIde checks in the order their scores are stored. */
export const CONFAIDE_SCORERS: readonly ConfaideScorer[] = [ratingScorer, textScorer, proxyScorer];
