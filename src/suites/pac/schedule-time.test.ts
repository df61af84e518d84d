import { describe, expect, it } from 'vitest';
import { parseScheduleTime } from './schedule-time.js';

describe('parseScheduleTime', () => {
  it('reads times without a zone as written and moves zoned times to UTC', () => {
    const local = parseScheduleTime('2026-03-02T10:30');
    const utc = parseScheduleTime('2026-03-02T10:30Z');
    const berlin = parseScheduleTime('2026-03-02 11:30:00+01:00');
    expect(local).toEqual({ ok: true, minutes: Date.UTC(2026, 2, 2, 10, 30) / 60_000 });
    expect(utc).toEqual(local);
    expect(berlin).toEqual(local);
    expect(parseScheduleTime('2026-03-02T10:30-02:00')).toEqual({
      ok: true,
      minutes: Date.UTC(2026, 2, 2, 12, 30) / 60_000,
    });
  });

  it('says which form it wants, and refuses impossible dates', () => {
    expect(parseScheduleTime('10:30')).toEqual({
      ok: false,
      message: "'10:30' is not a time: write YYYY-MM-DDTHH:MM (optionally :SS and a zone, Z or +01:00)",
    });
    expect(parseScheduleTime('2026-02-30T10:00')).toEqual({
      ok: false,
      message: "'2026-02-30T10:00' is not a calendar time",
    });
    expect(parseScheduleTime('2026-03-02T24:00')).toEqual({
      ok: false,
      message: "'2026-03-02T24:00' is not a calendar time",
    });
  });
});
