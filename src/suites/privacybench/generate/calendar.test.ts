import { describe, expect, it } from 'vitest';
import {
  addMinutes,
  daysBetween,
  earlierDate,
  instantOn,
  laterDate,
  overlap,
  shiftDate,
  stepWindows,
} from './calendar.js';

describe('calendar', () => {
  it('shifts dates across month and leap-year boundaries', () => {
    expect(shiftDate('2024-02-28', 1)).toBe('2024-02-29');
    expect(shiftDate('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(365);
    expect(laterDate('2024-01-02', '2023-12-31')).toBe('2024-01-02');
    expect(earlierDate('2024-01-02', '2023-12-31')).toBe('2023-12-31');
  });

  it('intersects closed day windows, open ends included', () => {
    expect(overlap({ from: '2024-01-01', to: null }, { from: '2024-03-01', to: '2024-04-01' })).toEqual({
      from: '2024-03-01',
      to: '2024-04-01',
    });
    expect(overlap({ from: '2024-01-01', to: '2024-02-01' }, { from: '2024-02-01', to: null })).toEqual({
      from: '2024-02-01',
      to: '2024-02-01',
    });
    expect(overlap({ from: '2024-01-01', to: '2024-01-31' }, { from: '2024-02-01', to: null })).toBeNull();
    expect(overlap({ from: '2024-01-01', to: null }, { from: '2023-01-01', to: null })).toEqual({
      from: '2024-01-01',
      to: null,
    });
  });

  it('cuts a timeline into consecutive steps that cover every day once', () => {
    const windows = stepWindows({ start: '2024-01-01', end: '2024-12-31', steps: 4 });
    expect(windows).toEqual([
      { from: '2024-01-01', to: '2024-03-31' },
      { from: '2024-04-01', to: '2024-07-01' },
      { from: '2024-07-02', to: '2024-09-30' },
      { from: '2024-10-01', to: '2024-12-31' },
    ]);
    expect(stepWindows({ start: '2024-01-01', end: '2024-01-02', steps: 3 })).toEqual([
      { from: '2024-01-01', to: '2024-01-01' },
      { from: '2024-01-01', to: '2024-01-01' },
      { from: '2024-01-02', to: '2024-01-02' },
    ]);
  });

  it('builds UTC instants with whole seconds', () => {
    expect(instantOn('2024-03-20', 9 * 60 + 30)).toBe('2024-03-20T09:30:00Z');
    expect(addMinutes('2024-03-20T23:59:00Z', 2)).toBe('2024-03-21T00:01:00Z');
  });
});
