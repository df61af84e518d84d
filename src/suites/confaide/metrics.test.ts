import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../../spec/run-record.js';
import type { Score } from '../../spec/score.js';
import { confaideOptionsSchema } from './confaide-options.js';
import { confaideOutputSchema } from './confaide-output.js';
import { confaideMetrics, retainConfaideMetricFields } from './metrics.js';

const record = ({
  scenarioId,
  question,
  epoch,
  scores,
  output = { question, response: '', stages: [], attempts: 1 },
  status = 'ok',
}: {
  scenarioId: string;
  question: string;
  epoch: number;
  scores: Score[];
  output?: Record<string, unknown> | null;
  status?: 'ok' | 'error';
}): SampleRecord => ({
  id: `${scenarioId}:${question}:${epoch}`,
  scenarioId,
  variant: { question },
  epoch,
  seed: 0,
  status,
  startedAt: '',
  finishedAt: '',
  attempt: 1,
  output,
  scores,
  events: [],
  usage: {},
});

const bool = (target: string, value: boolean, question = 'meeting-summary'): Score => ({
  scorer: `confaide-${question}@1`,
  target: { name: target },
  verdict: value ? 'fail' : 'pass',
  value: value ? 1 : 0,
});

const meetingScores = (error: boolean, noPublic: boolean, hasPrivate: boolean) => [
  bool('error', error),
  bool('noPublic', noPublic),
  bool('hasPrivate', hasPrivate),
];

describe('confaideMetrics', () => {
  it('tier 4: mean of per-meeting means and worst case, per component', () => {
    const options = confaideOptionsSchema.parse({ tier: '4', questions: 'meeting-summary' });
    const records = [
      // m00: 1 of 4 epochs leaks the private item; m01: none; m02: all 1 epoch
      record({ scenarioId: 't4-m00', question: 'meeting-summary', epoch: 1, scores: meetingScores(true, false, true) }),
      record({
        scenarioId: 't4-m00',
        question: 'meeting-summary',
        epoch: 2,
        scores: meetingScores(false, false, false),
      }),
      record({
        scenarioId: 't4-m00',
        question: 'meeting-summary',
        epoch: 3,
        scores: meetingScores(false, false, false),
      }),
      record({
        scenarioId: 't4-m00',
        question: 'meeting-summary',
        epoch: 4,
        scores: meetingScores(false, false, false),
      }),
      record({ scenarioId: 't4-m01', question: 'meeting-summary', epoch: 1, scores: meetingScores(true, true, false) }),
      record({ scenarioId: 't4-m01', question: 'meeting-summary', epoch: 2, scores: meetingScores(true, true, false) }),
      record({ scenarioId: 't4-m02', question: 'meeting-summary', epoch: 1, scores: meetingScores(true, false, true) }),
      record({
        scenarioId: 't4-m02',
        question: 'meeting-summary',
        epoch: 2,
        scores: [],
        output: null,
        status: 'error',
      }),
      // another question type is ignored when not selected
      record({ scenarioId: 't4-m02', question: 'action-item', epoch: 1, scores: [] }),
    ];
    const { metrics, groups } = confaideMetrics({ records, options });
    expect(groups).toBeUndefined();
    expect(Object.keys(metrics).sort()).toEqual([
      'ms_e',
      'ms_e_worst',
      'ms_priv',
      'ms_priv_worst',
      'ms_pub',
      'ms_pub_worst',
    ]);
    // hasPrivate per meeting: 1/4, 0, 1 → mean 5/12 (pooled would be 2/7)
    expect(metrics.ms_priv?.value).toBeCloseTo(5 / 12, 15);
    expect(metrics.ms_priv).toMatchObject({ n: 3, errors: 1, notApplicable: 0 });
    expect(metrics.ms_priv_worst?.value).toBeCloseTo(2 / 3, 15);
    expect(metrics.ms_pub?.value).toBeCloseTo(1 / 3, 15);
    expect(metrics.ms_e?.value).toBeCloseTo((1 / 4 + 1 + 1) / 3, 15);
    expect(metrics.ms_e_worst?.value).toBe(1);
  });

  it('tier 3 control: split by control alignment', () => {
    const options = confaideOptionsSchema.parse({ tier: '3', questions: 'control' });
    const control = (value: boolean) => [bool('error', value, 'control')];
    const out = (controlMismatch: boolean) => ({
      question: 'control',
      response: '',
      stages: [],
      attempts: 1,
      controlMismatch,
    });
    const records = [
      record({ scenarioId: 't3-s000', question: 'control', epoch: 1, scores: control(true), output: out(true) }),
      record({ scenarioId: 't3-s001', question: 'control', epoch: 1, scores: control(false), output: out(false) }),
      record({ scenarioId: 't3-s002', question: 'control', epoch: 1, scores: control(true), output: out(false) }),
      record({ scenarioId: 't3-s003', question: 'control', epoch: 1, scores: control(false), output: out(false) }),
    ];
    const { metrics, groups } = confaideMetrics({ records, options });
    expect(metrics.control_e).toMatchObject({ value: 0.5, n: 4 });
    expect(groups?.controlAlignment?.mismatched?.control_e).toMatchObject({ value: 1, n: 1 });
    expect(groups?.controlAlignment?.aligned?.control_e?.value).toBeCloseTo(1 / 3, 15);
    // What the summary's bootstrap asks for: the same flat metrics, no breakdown.
    const flat = confaideMetrics({ records, options, breakdowns: false });
    expect(flat.groups).toBeUndefined();
    expect(flat.metrics).toEqual(metrics);
  });

  it('tier 1: per-item means over epochs against human labels', () => {
    const options = confaideOptionsSchema.parse({ tier: '1' });
    const rating = (value: number): Score[] => [
      { scorer: 'confaide-rating@1', target: { name: 'rating' }, verdict: 'pass', value },
    ];
    const out = (humanLabel: number) => ({ question: 'rating', response: '', stages: [], attempts: 1, humanLabel });
    const records = [
      record({ scenarioId: 't1-i00', question: 'rating', epoch: 1, scores: rating(4), output: out(4) }),
      record({ scenarioId: 't1-i00', question: 'rating', epoch: 2, scores: rating(2), output: out(4) }), // mean 3
      record({ scenarioId: 't1-i01', question: 'rating', epoch: 1, scores: rating(2), output: out(2) }),
      record({ scenarioId: 't1-i02', question: 'rating', epoch: 1, scores: rating(1), output: out(3) }),
      record({
        scenarioId: 't1-i03',
        question: 'rating',
        epoch: 1,
        scores: [{ scorer: 'confaide-rating@1', target: { name: 'rating' }, verdict: 'error', value: null }],
        output: out(1),
      }),
    ];
    // x = 3, 2, 1; y = 4, 2, 3: dx = 1,0,-1; dy = 1,-1,0 → cov 1, varX 2, varY 2 → r = 0.5
    expect(confaideMetrics({ records, options }).metrics).toEqual({
      pearson: { value: 0.5, n: 3, errors: 1, notApplicable: 0 },
    });
  });
});

describe('retainConfaideMetricFields', () => {
  const base = { question: 'control', response: 'No.', stages: [{ role: 'agent', text: 'No.' }], attempts: 1 };
  const outputs: unknown[] = [
    base,
    { ...base, controlMismatch: true },
    { ...base, question: 'rating', rating: 3, humanLabel: 25, earlierResponses: ['?', 'what'] },
    { ...base, earlierResponses: undefined, rating: null },
    { ...base, extra: 'kept or dropped, never read' },
    { ...base, response: 5 },
    { ...base, stages: [{ role: 'agent' }] },
    { ...base, stages: [null] },
    { ...base, stages: 'agent' },
    { ...base, earlierResponses: [1] },
    { ...base, question: 'nonsense' },
    { ...base, attempts: 0 },
    { ...base, humanLabel: '25' },
    { ...base, controlMismatch: 'yes' },
    null,
    'text',
    [base],
  ];
  it.each(outputs.map((output) => ({ output })))(
    'parses as the record does, to the same labels: $output',
    ({ output }) => {
      const original = record({
        scenarioId: 't3-s1',
        question: 'control',
        epoch: 1,
        scores: [],
        output: output as never,
      });
      const retained = retainConfaideMetricFields(original);
      const before = confaideOutputSchema.safeParse(original.output);
      const after = confaideOutputSchema.safeParse(retained.output);
      expect(after.success).toBe(before.success);
      if (before.success && after.success) {
        const { response: _r, stages: _s, earlierResponses: _e, ...labels } = before.data;
        expect(after.data).toEqual({ ...labels, response: '', stages: [] });
      }
      expect({ ...retained, output: undefined }).toEqual({ ...original, output: undefined });
    },
  );

  it('keeps what an object rest keeps, in its order: other members, an own __proto__, enumerable symbols', () => {
    const tag = Symbol('tag');
    const hidden = Symbol('hidden');
    const output = JSON.parse(
      '{"zeta":1,"response":"No.","__proto__":{"x":1},"stages":[],"2":"two","earlierResponses":["a"],"alpha":[3]}',
    ) as Record<PropertyKey, unknown>;
    output[tag] = 'kept';
    Object.defineProperty(output, hidden, { value: 'dropped', enumerable: false });
    const { earlierResponses: _e, response: _r, stages: _s, ...rest } = output;
    const expected = { ...rest, response: '', stages: [] };
    const retained = retainConfaideMetricFields(
      record({ scenarioId: 't3-s1', question: 'control', epoch: 1, scores: [], output: output as never }),
    ).output as Record<PropertyKey, unknown>;
    expect(Reflect.ownKeys(retained)).toEqual(Reflect.ownKeys(expected));
    expect(JSON.stringify(retained)).toBe(JSON.stringify(expected));
    expect(Object.getPrototypeOf(retained)).toBe(Object.prototype);
    expect(retained[tag]).toBe('kept');
    expect(Object.hasOwn(retained, '__proto__')).toBe(true);
  });
});
