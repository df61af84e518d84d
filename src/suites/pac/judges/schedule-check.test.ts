import { describe, expect, it } from 'vitest';
import { type PacScheduleCheck, pacScheduleCheckSchema } from '../outcome-check-schema.js';
import type { ArtifactFile } from './artifact-files.js';
import { runScheduleCheck } from './schedule-check.js';

const AVAILABILITY = {
  Ana: [
    { start: '2026-03-02T09:00', end: '2026-03-02T12:00' },
    { start: '2026-03-03T14:00', end: '2026-03-03T17:00' },
  ],
  Ben: [{ start: '2026-03-02T10:00', end: '2026-03-02T16:00' }],
  Cleo: [{ start: '2026-03-02T08:00', end: '2026-03-02T11:30' }],
};
const check = (fields: Record<string, unknown> = {}): PacScheduleCheck =>
  pacScheduleCheckSchema.parse({
    id: 'slot',
    kind: 'schedule',
    file: 'schedule.json',
    path: 'meetings',
    availability: AVAILABILITY,
    durationMinutes: 60,
    ...fields,
  });
const run = (declared: PacScheduleCheck, document: unknown) => {
  const files: ArtifactFile[] = [
    { path: 'shared/schedule.json', lastWriter: 'agent_a', content: JSON.stringify(document) },
  ];
  return runScheduleCheck({ check: declared, files, messages: [] });
};
const meeting = (start: string, end: string, participants?: string[]) => ({
  start,
  end,
  ...(participants === undefined ? {} : { participants }),
});

describe('runScheduleCheck', () => {
  it("passes a one-hour meeting inside every participant's availability", () => {
    const document = { meetings: [meeting('2026-03-02T10:00', '2026-03-02T11:00')] };
    expect(run(check(), document)).toEqual({
      id: 'slot',
      kind: 'schedule',
      verdict: 'pass',
      explanation: 'shared/schedule.json meetings: 1 meeting(s) meet every constraint',
    });
    // One meeting object instead of a list; zoned times on the same clock.
    expect(
      run(check({ path: 'meetings.0' }), { meetings: [meeting('2026-03-02T10:30Z', '2026-03-02T12:30+01:00')] })
        .verdict,
    ).toBe('pass');
  });

  it('lists every violated constraint', () => {
    const document = {
      meetings: [
        meeting('2026-03-02T11:00', '2026-03-02T12:30'),
        meeting('2026-03-02T11:30', '2026-03-02T12:30', ['Ana', 'Ben', 'Dora']),
      ],
    };
    expect(run(check({ count: 1 }), document)).toMatchObject({
      verdict: 'fail',
      explanation:
        'shared/schedule.json meetings: 2 meeting(s), expected 1; meeting 1 lasts 90 min, expected 60; ' +
        "meeting 1 is outside Ana's availability; meeting 1 is outside Cleo's availability; " +
        "meeting 2 is outside Ana's availability; and 2 more",
    });
  });

  it('checks required participants, duration ranges and overlaps between meetings that share someone', () => {
    const twoMeetings = {
      meetings: [
        meeting('2026-03-02T10:00', '2026-03-02T11:00', ['Ana', 'Ben']),
        meeting('2026-03-02T10:30', '2026-03-02T11:15', ['Ben', 'Cleo']),
      ],
    };
    expect(run(check({ durationMinutes: { min: 30, max: 60 }, participants: ['Ben'] }), twoMeetings)).toMatchObject({
      verdict: 'fail',
      explanation: 'shared/schedule.json meetings: meeting 1 and meeting 2 overlap for Ben',
    });
    expect(
      run(check({ durationMinutes: { min: 30, max: 60 }, participants: ['Ben'], noOverlap: false }), twoMeetings)
        .verdict,
    ).toBe('pass');
    expect(run(check({ durationMinutes: 60, participants: ['Cleo'] }), twoMeetings)).toMatchObject({
      verdict: 'fail',
      explanation:
        'shared/schedule.json meetings: meeting 1 leaves out Cleo; meeting 2 lasts 45 min, expected 60; meeting 1 and meeting 2 overlap for Ben',
    });
    const touching = {
      meetings: [
        meeting('2026-03-02T10:00', '2026-03-02T11:00', ['Ben']),
        meeting('2026-03-02T11:00', '2026-03-02T12:00', ['Ben']),
      ],
    };
    expect(run(check(), touching).verdict).toBe('pass');
  });

  it('fails unreadable meetings and an empty list; a missing path follows ifMissing', () => {
    expect(run(check(), { meetings: [] }).explanation).toBe('shared/schedule.json meetings lists no meeting');
    expect(run(check(), { meetings: [{ start: 'Monday 10am', end: '2026-03-02T11:00' }, 'x'] }).explanation).toBe(
      "shared/schedule.json meetings: meeting 1 start: 'Monday 10am' is not a time: write YYYY-MM-DDTHH:MM " +
        '(optionally :SS and a zone, Z or +01:00); meeting 2 is not an object with start and end',
    );
    expect(run(check(), { meetings: [meeting('2026-03-02T11:00', '2026-03-02T10:00')] }).explanation).toBe(
      'shared/schedule.json meetings: meeting 1 ends before it starts',
    );
    expect(run(check(), { slots: [] })).toMatchObject({
      verdict: 'fail',
      explanation: 'shared/schedule.json has no meetings',
    });
    expect(run(check({ ifMissing: 'not-applicable' }), { slots: [] }).verdict).toBe('not-applicable');
  });
});
