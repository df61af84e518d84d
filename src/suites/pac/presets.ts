import type { SuitePreset } from '../suite.js';

/**
 * The `pac` presets. `offline` is what `confidant demo` runs: the committed starter scenarios, the
 * rule-based `reference:oracle` agent in every seat (give `--model reference:naive` for the
 * violating one), the deterministic task judge (the scenarios' requirement markers) and the
 * deterministic privacy judge (violation keywords); no model, no network. `mock-judges` runs the
 * LLM judges (per-message task judge, keyword-awareness privacy judge, grounding) against
 * `mock:judge-safe`, to try the judged pipeline offline (`--model judge=mock:judge-leak` flips it).
 */
export const PAC_PRESETS: readonly SuitePreset[] = [
  {
    id: 'offline',
    description:
      'starter scenarios, reference agents and deterministic judges (markers, keywords): no model, no network; --model reference:naive for the violating agent',
    options: { split: 'starter', taskMode: 'markers', privacyMode: 'keyword-only' },
    models: [{ role: 'agent', spec: 'reference:oracle' }],
  },
  {
    id: 'mock-judges',
    description:
      'starter scenarios, reference agents and the LLM judges answered by mock:judge-safe (or --model judge=mock:judge-leak / mock:judge-alternate): the judged pipeline offline',
    options: { split: 'starter' },
    models: [
      { role: 'agent', spec: 'reference:oracle' },
      { role: 'judge', spec: 'mock:judge-safe' },
    ],
  },
];
