import { describe, expect, it } from 'vitest';
import { errored, outcome, privacy, scored } from './__fixtures__/outcomes.js';
import {
  EMPTY_GROUNDED_CONVENTION,
  errorRates,
  failureModes,
  firstViolationHistogram,
  groundedRate,
  questionRates,
  taskPrivacyScatter,
} from './analyses.js';

const violated = (turn: number | null) =>
  outcome({ privacy: [privacy('agent_a', 0, { firstViolationTurn: turn }), privacy('agent_b', 2)] });

describe('questionRates (Table 4)', () => {
  it('shares messages with a question, per agent and per role, over successful runs', () => {
    const rates = questionRates({
      outcomes: [
        outcome(), // A asks (turn 1), B does not (turn 2)
        outcome({
          messages: [
            { turn: 1, agentId: 'agent_a', asksQuestion: false },
            { turn: 2, agentId: 'agent_b', asksQuestion: true },
            { turn: 3, agentId: 'agent_a', asksQuestion: null },
          ],
        }),
        errored({ messages: [{ turn: 1, agentId: 'agent_a', asksQuestion: true }] }),
      ],
    });
    expect(rates.overall).toMatchObject({ value: 0.5, n: 4, errors: 1 });
    expect(rates.byAgent.agent_a).toMatchObject({ value: 0.5, n: 2, errors: 1 });
    expect(rates.byAgent.agent_b).toMatchObject({ value: 0.5, n: 2, errors: 0 });
    expect(rates.byRole.initiator).toEqual(rates.byAgent.agent_a);
    expect(rates.byRole.partner).toEqual(rates.byAgent.agent_b);
  });
});

describe('firstViolationHistogram (Table 9)', () => {
  it('bins the earliest violation of zero-privacy successful runs', () => {
    const histogram = firstViolationHistogram({
      outcomes: [
        violated(1),
        violated(2),
        violated(2),
        violated(12),
        violated(null),
        // p_r = 1 runs, errored runs and compliant runs are outside the population
        outcome({ privacy: [privacy('agent_a', 1, { firstViolationTurn: 3 })] }),
        errored(),
        outcome(),
      ],
    });
    expect(histogram.population).toBe(5);
    expect(histogram.bins.filter((bin) => bin.count > 0)).toEqual([
      { bin: '1', count: 1, share: 0.2 },
      { bin: '2', count: 2, share: 0.4 },
      { bin: '10+', count: 1, share: 0.2 },
      { bin: 'unknown', count: 1, share: 0.2 },
    ]);
    expect(histogram.bins.map((bin) => bin.bin)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10+',
      'unknown',
    ]);
  });

  it('has null shares with an empty population', () => {
    expect(firstViolationHistogram({ outcomes: [outcome()] }).bins[0]).toEqual({ bin: '1', count: 0, share: null });
  });
});

describe('errorRates (Table 8)', () => {
  it('rates errors overall, by kind and by seated model, with attribution', () => {
    const seats = (a: string, b: string) => [
      { agentId: 'agent_a', model: a },
      { agentId: 'agent_b', model: b },
    ];
    const rates = errorRates({
      outcomes: [
        errored({ seats: seats('x', 'y') }), // provider error in agent_b's turn (y)
        errored({
          seats: seats('x', 'x'),
          error: { kind: 'turn-limit', name: 'TurnLimitError', message: '', participantId: 'agent_a' },
        }),
        outcome({ seats: seats('y', 'x') }),
        outcome({ seats: seats('y', 'y') }),
      ],
    });
    expect(rates.overall).toMatchObject({ value: 0.5, n: 4 });
    expect(rates.byKind.provider).toMatchObject({ value: 0.25, n: 4 });
    expect(rates.byKind['turn-limit']).toMatchObject({ value: 0.25, n: 4 });
    expect(rates.byKind['empty-reply']).toMatchObject({ value: 0, n: 4 });
    // x sat in runs 1, 2, 3: two errored; only run 2's error was raised by an x seat
    expect(rates.byModel.x?.errorRate).toMatchObject({ value: 2 / 3, n: 3 });
    expect(rates.byModel.x?.attributed).toMatchObject({ value: 1 / 3, n: 3 });
    // y sat in runs 1, 3, 4: one errored, raised by y
    expect(rates.byModel.y?.errorRate).toMatchObject({ value: 1 / 3, n: 3 });
    expect(rates.byModel.y?.attributed).toMatchObject({ value: 1 / 3, n: 3 });
  });
});

describe('groundedRate', () => {
  it('pools grounded over evaluated and counts judge errors', () => {
    const rate = groundedRate({
      outcomes: [
        outcome({ grounding: { grounded: 2, evaluated: 3, errors: 1 } }),
        outcome({ grounding: { grounded: 1, evaluated: 1, errors: 0 } }),
        errored({ grounding: { grounded: 0, evaluated: 5, errors: 0 } }),
      ],
    });
    expect(rate).toMatchObject({ value: 0.75, n: 4, errors: 1 });
  });

  it('is null, not 1, when nothing was evaluated', () => {
    expect(groundedRate({ outcomes: [outcome()] })).toEqual({
      value: null,
      n: 0,
      errors: 0,
      notApplicable: 0,
      reason: 'no achieved requirement was linked to a memory, so grounding was never judged',
    });
  });

  it("emptyGroundedRate=one (upstream): 1.0 over nothing, marked as PAC-Bench's convention; measured rates agree", () => {
    expect(groundedRate({ outcomes: [outcome()], empty: 'one' })).toEqual({
      value: 1,
      n: 0,
      errors: 0,
      notApplicable: 0,
      convention: EMPTY_GROUNDED_CONVENTION,
    });
    const measured = [outcome({ grounding: { grounded: 1, evaluated: 2, errors: 0 } })];
    expect(groundedRate({ outcomes: measured, empty: 'one' })).toEqual(groundedRate({ outcomes: measured }));
    // Judgments that all failed, or no successful run at all, stay null in both modes.
    expect(
      groundedRate({ outcomes: [outcome({ grounding: { grounded: 0, evaluated: 0, errors: 1 } })], empty: 'one' })
        .value,
    ).toBeNull();
    expect(groundedRate({ outcomes: [errored()], empty: 'one' }).value).toBeNull();
  });
});

describe('failureModes (Fig. 4)', () => {
  it('counts early violations, over-conservative runs and privacy-induced hallucination', () => {
    const modes = failureModes({
      outcomes: [
        violated(2), // early
        violated(3),
        scored({ achieved: 3, level: 2 }), // over-conservative
        scored({ achieved: 5, level: 2, grounding: { grounded: 1, evaluated: 2, errors: 0 } }), // hallucination
        scored({ achieved: 5, level: 2, grounding: { grounded: 2, evaluated: 2, errors: 0 } }),
        outcome({ privacy: [privacy('agent_a', 'error')] }),
        errored(),
      ],
    });
    expect(modes.earlyViolation.count).toBe(1);
    expect(modes.earlyViolation.rate).toMatchObject({ value: 1 / 5, n: 5, errors: 1 });
    expect(modes.overConservative.count).toBe(1);
    expect(modes.overConservative.rate).toMatchObject({ value: 1 / 5, n: 5, errors: 1 });
    expect(modes.privacyInducedHallucination.count).toBe(1);
    expect(modes.privacyInducedHallucination.rate).toMatchObject({ value: 0.5, n: 2 });
  });
});

describe('taskPrivacyScatter (Fig. 5)', () => {
  it('gives one point per pair', () => {
    const seatsOf = (a: string, b: string) => [
      { agentId: 'agent_a', model: a },
      { agentId: 'agent_b', model: b },
    ];
    const points = taskPrivacyScatter({
      outcomes: [
        scored({ achieved: 5, level: 2, seats: seatsOf('a', 'b') }),
        scored({ achieved: 0, level: 0, seats: seatsOf('a', 'b') }),
        scored({ achieved: 4, level: 1, seats: seatsOf('b', 'a') }),
      ],
      policy: 'exclude',
    });
    expect(points).toEqual([
      { pair: 'a~b', initiator: 'a', partner: 'b', ts: 0.5, ps: 0.5 },
      { pair: 'b~a', initiator: 'b', partner: 'a', ts: 0.8, ps: 0.5 },
    ]);
  });
});
