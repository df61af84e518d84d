import { describe, expect, it } from 'vitest';
import { addDays, endInstant, endMs, isWithinWindow, startMs } from './community-time.js';

describe('community time', () => {
  it('reads a date as the first instant (lower bound) or the last millisecond (upper bound) of a UTC day', () => {
    expect(startMs('2024-06-14')).toBe(Date.UTC(2024, 5, 14));
    expect(endMs('2024-06-14')).toBe(Date.UTC(2024, 5, 15) - 1);
    expect(startMs('2024-06-14T18:00:00+02:00')).toBe(Date.UTC(2024, 5, 14, 16));
    expect(endMs('2024-06-14T18:00:00Z')).toBe(Date.UTC(2024, 5, 14, 18));
  });

  it('treats windows as closed, with whole days at date bounds and null as open-ended', () => {
    expect(isWithinWindow({ from: '2024-01-01', to: '2024-06-14', at: '2024-06-14T23:59:59Z' })).toBe(true);
    expect(isWithinWindow({ from: '2024-01-01', to: '2024-06-14', at: '2024-06-15T00:00:00Z' })).toBe(false);
    expect(isWithinWindow({ from: '2024-06-15', to: null, at: '2024-06-15T00:00:00Z' })).toBe(true);
    expect(isWithinWindow({ from: '2024-06-15', to: null, at: '2024-06-14T23:59:59Z' })).toBe(false);
    expect(isWithinWindow({ from: '2024-06-15', to: null, at: '2099-01-01T00:00:00Z' })).toBe(true);
  });

  it('formats the end of a date and whole-day offsets as UTC date-times', () => {
    expect(endInstant('2024-12-31')).toBe('2024-12-31T23:59:59.999Z');
    expect(endInstant('2024-12-31T10:00:00Z')).toBe('2024-12-31T10:00:00.000Z');
    expect(addDays('2024-02-28T12:00:00Z', 1)).toBe('2024-02-29T12:00:00.000Z');
  });
});
