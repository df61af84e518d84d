import { describe, expect, it } from 'vitest';
import { allSaidFin, containsFin, parseMilestones } from './termination.js';

const entry = (participantId: string, text: string) => ({ participantId, text });

describe('termination rules', () => {
  it('finds [FIN] case-insensitively', () => {
    expect(containsFin('done [fin]')).toBe(true);
    expect(containsFin('done [Fin].')).toBe(true);
    expect(containsFin('FIN without brackets')).toBe(false);
  });

  it('needs the last N messages, one per participant, all with [FIN]', () => {
    const ids = ['a', 'b'];
    expect(allSaidFin({ transcript: [entry('a', '[FIN]')], participantIds: ids })).toBe(false);
    expect(allSaidFin({ transcript: [entry('a', '[FIN]'), entry('b', 'ok [fin]')], participantIds: ids })).toBe(true);
    expect(allSaidFin({ transcript: [entry('a', '[FIN]'), entry('b', 'not yet')], participantIds: ids })).toBe(false);
    expect(
      allSaidFin({ transcript: [entry('a', '[FIN]'), entry('b', 'x'), entry('a', '[FIN]')], participantIds: ids }),
    ).toBe(false);
  });

  it('generalises to three participants and to one', () => {
    const three = ['a', 'b', 'c'];
    const said = [entry('a', 'x'), entry('b', '[FIN]'), entry('c', '[FIN]'), entry('a', '[FIN]')];
    expect(allSaidFin({ transcript: said, participantIds: three })).toBe(true);
    expect(allSaidFin({ transcript: said.slice(0, 3), participantIds: three })).toBe(false);
    expect(allSaidFin({ transcript: [entry('a', 'done [FIN]')], participantIds: ['a'] })).toBe(true);
  });

  it('parses legacy milestone markers', () => {
    expect(parseMilestones('[MILE: 1] then [mile:2.5] and [MILE 3]')).toEqual([1, 2.5]);
  });
});
