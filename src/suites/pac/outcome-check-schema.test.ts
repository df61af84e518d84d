import { describe, expect, it } from 'vitest';
import { pacOutcomeChecksSchema } from './outcome-check-schema.js';

/** The issues of a checks list as `path: message`. */
function problems(checks: unknown): string[] {
  const parsed = pacOutcomeChecksSchema.safeParse(checks);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const availability = { Ana: [{ start: '2026-03-02T09:00', end: '2026-03-02T12:00' }] };

describe('pacOutcomeChecksSchema', () => {
  it('reads each kind, with defaults for ifMissing, schedule path and noOverlap', () => {
    const parsed = pacOutcomeChecksSchema.parse([
      { id: 'offer-json', kind: 'json', file: 'offer.json', schema: { type: 'object', required: ['price'] } },
      { id: 'price', kind: 'number', file: 'offer.json', path: 'price', min: 100, max: 200 },
      { id: 'agreed', kind: 'number', pattern: 'agreed at (\\d+)', max: 200, ifMissing: 'not-applicable' },
      { id: 'slot', kind: 'schedule', file: 'schedule.json', availability, durationMinutes: 60 },
    ]);
    expect(parsed.map((check) => [check.id, check.ifMissing])).toEqual([
      ['offer-json', 'fail'],
      ['price', 'fail'],
      ['agreed', 'not-applicable'],
      ['slot', 'fail'],
    ]);
    expect(parsed[3]).toMatchObject({ path: '', noOverlap: true });
  });

  it('puts every problem of a declaration at its field', () => {
    expect(
      problems([
        { id: 'a', kind: 'json', file: '../etc/passwd', schema: { type: 'money' } },
        { id: 'b', kind: 'number', file: 'x.json', path: 'p', pattern: '(', min: 5, max: 1 },
        { id: 'c', kind: 'number', path: 'p' },
        {
          id: 'd',
          kind: 'schedule',
          file: 's.json',
          availability: { Ana: [{ start: '10:00', end: '2026-03-02T09:00' }] },
          participants: ['Ben'],
        },
        { id: 'a', kind: 'calendar' },
        { id: 'Bad Id', kind: 'json', file: 'x.json', extra: 1 },
      ]),
    ).toEqual([
      "0.file: a file is a path inside the shared folder, e.g. 'schedule.json' (no '..', not absolute)",
      '0.schema: not a JSON Schema zod can read: Unsupported type: money',
      "1.path: give exactly one of 'path' and 'pattern'",
      '1.max: max 1 is below min 5',
      expect.stringMatching(/^1\.pattern: Invalid regular expression/),
      "2.file: 'path' reads a JSON file: name it in 'file'",
      "2.min: give 'min', 'max' or both",
      "3.availability.Ana.0.start: '10:00' is not a time: write YYYY-MM-DDTHH:MM (optionally :SS and a zone, Z or +01:00)",
      "3.participants.0: 'Ben' has no availability entry",
      "4.kind: Invalid discriminator value. Expected 'json' | 'number' | 'schedule'",
      '5.id: a check id is lower-case letters, digits, - and _',
      '5: Unrecognized key: "extra"',
    ]);
  });

  it('refuses an interval that ends before it starts, repeated ids and an empty list', () => {
    expect(
      problems([
        {
          id: 's',
          kind: 'schedule',
          file: 's.json',
          availability: { Ana: [{ start: '2026-03-02T12:00', end: '2026-03-02T09:00' }] },
        },
        { id: 's', kind: 'number', pattern: '\\d+', min: 0 },
      ]),
    ).toEqual(['0.availability.Ana.0: an interval must end after it starts', "1.id: check id 's' is used twice"]);
    expect(problems([])).toEqual([': give at least one check, or leave the field out']);
  });
});
