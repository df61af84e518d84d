import { describe, expect, it } from 'vitest';
import { useFidelityRuns } from '../support/fidelity-runs.js';
import { lastUserText, type MockHandler } from '../support/mock-openai-server.js';

const TASK = 'decide whether this message by itself satisfies it';
const AWARENESS = 'explicit, written evidence';
const VARIANTS = 'list other ways of writing these values';
const achievedAll = JSON.stringify({
  evaluations: [0, 1, 2, 3, 4].map((index) => ({ index, achieved: true, reasoning: 'shown' })),
});
const fenced = (json: string) => `\`\`\`json\n${json}\n\`\`\``;
const FENCED_GROUNDED = fenced('{"reasoning": "ok", "evidences": [], "evaluation": true}');

/** A PAC run whose agents are the rule-based naive reference (it shares its records verbatim). */
const pacArgs = ({ baseURL }: { baseURL: string }) => [
  'pac',
  '--split',
  'starter',
  '--limit',
  '1',
  '--model',
  'agent=reference:naive',
  '--model',
  `judge=openai-compatible:judge-m@${baseURL}`,
];

describe('confidant run pac --fidelity upstream over HTTP, with malformed judge replies', () => {
  /**
   * The judge answers in ways PAC-Bench's code and confidant read differently (docs/fidelity.md,
   * PAC #7, #9, #12): the task judge puts its JSON after a preamble (every requirement achieved),
   * the awareness judge answers in prose, the keyword expansion and grounding judges write fenced JSON.
   */
  const handler: MockHandler = (body) => {
    const prompt = lastUserText(body);
    if (prompt.includes(TASK)) return { type: 'text', text: `Result: ${achievedAll}` };
    if (prompt.includes(AWARENESS)) return { type: 'text', text: 'It shows some awareness.' };
    if (prompt.includes(VARIANTS)) return { type: 'text', text: fenced('{"variations": []}') };
    return { type: 'text', text: FENCED_GROUNDED };
  };
  const { run } = useFidelityRuns({ prefix: 'fidelity-pac', handler, models: ['judge-m'], args: pacArgs });

  it('scores them as PAC-Bench does (nothing achieved, a violation), and by default as achieved and errors', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.result.code, upstream.result.stderr).toBe(0);
    expect(upstream.plan.fidelity).toBe('upstream');
    const up = upstream.metrics;
    expect(up.ts).toMatchObject({ value: 0, n: 1, errors: 0 });
    expect(up.ps).toMatchObject({ value: 0, n: 1, errors: 0 });
    // Nothing achieved, so nothing grounded: upstream's 1.0, marked as its convention (PAC #12).
    expect(up.grounded_rate).toMatchObject({ value: 1, n: 0, errors: 0 });
    expect(up.grounded_rate?.convention).toMatch(/^PAC-Bench's convention/);

    const ours = await run([], 'confidant');
    // Every sample has a judge error, over --max-error-rate: the failure shows in the exit code.
    expect(ours.result.code, ours.result.stderr).toBe(4);
    const mine = ours.metrics;
    expect(mine.ts).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(mine.ps).toMatchObject({ value: null, n: 0, errors: 1 });
    // Every requirement achieved; the three backed by records are judged grounded (fenced JSON read).
    expect(mine.grounded_rate).toMatchObject({ value: 1, n: 3, errors: 0 });
    expect(mine.grounded_rate?.convention).toBeUndefined();
  }, 300_000);
});

describe('confidant run pac --fidelity upstream over HTTP, with a grounding judge that always fences its JSON', () => {
  /** Well-formed task (all achieved), awareness and expansion replies; the grounding judge fences (PAC #8). */
  const handler: MockHandler = (body) => {
    const prompt = lastUserText(body);
    if (prompt.includes(TASK)) return { type: 'text', text: achievedAll };
    if (prompt.includes(AWARENESS))
      return { type: 'text', text: '{"reasoning": "none", "evidence": [], "evaluation": "failure"}' };
    if (prompt.includes(VARIANTS)) return { type: 'text', text: '{"variations": []}' };
    return { type: 'text', text: FENCED_GROUNDED };
  };
  const { run, server } = useFidelityRuns({
    prefix: 'fidelity-pac-grounding',
    handler,
    models: ['judge-m'],
    args: pacArgs,
  });
  const groundingCalls = () =>
    server().calls.filter((call) => lastUserText(call.body).includes('private source records'));

  it('upstream asks each grounding judgment 10 times and counts it hallucinated; by default it is read and grounded', async () => {
    const upstream = await run(['--fidelity', 'upstream'], 'upstream');
    expect(upstream.result.code, upstream.result.stderr).toBe(0);
    expect(upstream.metrics.ts).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(upstream.metrics.grounded_rate).toMatchObject({ value: 0, n: 3, errors: 0 });
    expect(groundingCalls()).toHaveLength(30);

    const ours = await run([], 'confidant');
    expect(ours.result.code, ours.result.stderr).toBe(0);
    expect(ours.metrics.grounded_rate).toMatchObject({ value: 1, n: 3, errors: 0 });
    expect(groundingCalls()).toHaveLength(33);
  }, 300_000);
});
