import { describe, expect, it } from 'vitest';
import { type PacNumberCheck, pacNumberCheckSchema } from '../outcome-check-schema.js';
import type { PacOutput } from '../pac-output.js';
import type { ArtifactFile } from './artifact-files.js';
import { readNumber, runNumberCheck } from './number-check.js';

const check = (fields: Record<string, unknown>): PacNumberCheck =>
  pacNumberCheckSchema.parse({ id: 'price', kind: 'number', min: 15000, max: 20000, ...fields });
const files: ArtifactFile[] = [
  { path: 'shared/offer.json', lastWriter: 'agent_a', content: '{"deal":{"price":"18,250"},"note":"n/a"}' },
  { path: 'shared/minutes.md', lastWriter: 'agent_b', content: 'Opening bid 22000.\nAgreed price: 19500 EUR' },
];
const message = (turn: number, text: string): PacOutput['messages'][number] => ({
  turn,
  agentId: turn % 2 === 1 ? 'agent_a' : 'agent_b',
  text,
  modelCalls: 1,
  refusedToolCalls: 0,
  toolCalls: [],
});
const messages = [
  message(1, 'I offer EUR 21,000.'),
  message(2, 'Counter: EUR 16,800 or EUR 17,400.'),
  message(3, 'Thanks.'),
];
const run = (declared: PacNumberCheck) => runNumberCheck({ check: declared, files, messages });

describe('runNumberCheck', () => {
  it('reads numbers as deliverables write them', () => {
    expect([readNumber(12), readNumber('18,250'), readNumber('€ 12 500.50'), readNumber('-3.5')]).toEqual([
      12, 18250, 12500.5, -3.5,
    ]);
    expect([readNumber('n/a'), readNumber(null), readNumber(Number.NaN), readNumber('1.2.3')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('passes a value at a JSON path inside the range and fails one outside', () => {
    expect(run(check({ file: 'offer.json', path: 'deal.price' }))).toEqual({
      id: 'price',
      kind: 'number',
      verdict: 'pass',
      explanation: 'shared/offer.json deal.price is 18250, inside [15000, 20000]',
      value: 18250,
    });
    expect(run(check({ file: 'offer.json', path: 'deal.price', max: 18000 }))).toMatchObject({
      verdict: 'fail',
      explanation: 'shared/offer.json deal.price is 18250, outside [15000, 18000]',
      value: 18250,
    });
    expect(run(check({ file: 'offer.json', path: 'note' }))).toMatchObject({
      verdict: 'fail',
      explanation: 'shared/offer.json note holds "n/a", which is not a number',
    });
  });

  it('reads the last match of a pattern in a file, and in the latest message that has one', () => {
    expect(run(check({ file: 'minutes.md', pattern: '(\\d[\\d,]*)' }))).toMatchObject({
      verdict: 'pass',
      value: 19500,
      explanation: 'shared/minutes.md ("19500") is 19500, inside [15000, 20000]',
    });
    expect(run(check({ pattern: 'EUR ([\\d,]+)' }))).toMatchObject({
      verdict: 'pass',
      value: 17400,
      explanation: 'turn 2 ("17,400") is 17400, inside [15000, 20000]',
    });
  });

  it('follows ifMissing when the path or the pattern finds nothing', () => {
    expect(run(check({ file: 'offer.json', path: 'deal.total' }))).toMatchObject({
      verdict: 'fail',
      explanation: 'shared/offer.json has no deal.total',
    });
    expect(run(check({ pattern: 'USD (\\d+)', ifMissing: 'not-applicable' }))).toMatchObject({
      verdict: 'not-applicable',
      explanation: '/USD (\\d+)/ matches no message (ifMissing: not-applicable)',
    });
    expect(run(check({ file: 'deal.md', pattern: '\\d+' }))).toMatchObject({ verdict: 'fail' });
  });
});
