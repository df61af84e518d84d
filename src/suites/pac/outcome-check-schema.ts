import { z } from 'zod';
import { parseScheduleTime } from './schedule-time.js';

/**
 * Deterministic outcome checks (our extension, `checks.outcome` of a scenario file): checks on
 * the final deliverable that run without a model (docs/suites/pac.md "Outcome checks"). Every
 * check has an `id` (unique in the scenario) and a `kind`:
 *
 * - `json`: a file of the final shared folder is valid JSON, matches a JSON Schema (`schema`),
 *   has the fields `required` names and the values `equals` gives;
 * - `number`: a number read at a JSON path of a file (`file` + `path`), or by a regular
 *   expression (`pattern`, first capture group or the whole match) in a file or, without `file`,
 *   in the transcript (the last match of the last message that has one), lies in `[min, max]`;
 * - `schedule`: the meetings of a file (at `path`, a list or one meeting `{start, end, participants}`)
 *   fall inside every participant's `availability`, last `durationMinutes`, include the
 *   `participants` the check names, number `count`, and (unless `noOverlap: false`) no two
 *   meetings that share a participant overlap.
 *
 * `ifMissing` says what a missing deliverable (the file is not in the final shared folder, the
 * JSON path is absent, the pattern never matches) is: `fail` (default, with an explanation) or
 * `not-applicable` (e.g. a price check when "no deal" is an acceptable end). Every problem of a
 * declaration (a JSON Schema zod cannot read, a pattern that does not compile, a time without a
 * date) is a zod issue at its field, so loaders list it with the file and field path.
 */

/** Check kinds, in the order the docs list them. */
export const PAC_OUTCOME_CHECK_KINDS = ['json', 'number', 'schedule'] as const;
/** One of {@link PAC_OUTCOME_CHECK_KINDS}. */
export type PacOutcomeCheckKind = (typeof PAC_OUTCOME_CHECK_KINDS)[number];

const CHECK_ID = /^[a-z0-9][a-z0-9_-]*$/;
/** `a.b.0.c`: property names and list indices separated by dots; empty is the whole document. */
const JSON_PATH = /^$|^[^.]+(\.[^.]+)*$/;

const jsonPath = z
  .string()
  .regex(JSON_PATH, 'a JSON path is dot-separated names and indices, e.g. offer.items.0.price');
const sharedFile = z
  .string()
  .min(1)
  .refine((path) => !path.split('/').includes('..') && !path.startsWith('/'), {
    message: "a file is a path inside the shared folder, e.g. 'schedule.json' (no '..', not absolute)",
  })
  .describe("a file of the final shared folder, e.g. 'schedule.json' (a leading 'shared/' is optional)");

const common = {
  id: z
    .string()
    .regex(CHECK_ID, 'a check id is lower-case letters, digits, - and _')
    .describe('unique in the scenario'),
  description: z.string().min(1).optional().describe('what the check verifies, shown in explanations'),
  ifMissing: z
    .enum(['fail', 'not-applicable'])
    .default('fail')
    .describe('a missing file, path or match: fail (default) or not-applicable'),
};

/** A `json` check. */
export const pacJsonCheckSchema = z
  .strictObject({
    ...common,
    kind: z.literal('json'),
    file: sharedFile,
    schema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('a JSON Schema (draft 2020-12 subset zod reads) the document must match'),
    required: z.array(jsonPath.min(1)).optional().describe('JSON paths that must be present'),
    equals: z.record(jsonPath, z.unknown()).optional().describe('JSON path → the value it must hold (deep equality)'),
  })
  .superRefine((check, context) => {
    if (check.schema === undefined) return;
    try {
      z.fromJSONSchema(check.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (cause) {
      context.addIssue({
        code: 'custom',
        path: ['schema'],
        message: `not a JSON Schema zod can read: ${(cause as Error).message}`,
      });
    }
  });

/** A `number` check. */
export const pacNumberCheckSchema = z
  .strictObject({
    ...common,
    kind: z.literal('number'),
    file: sharedFile.optional(),
    path: jsonPath.optional().describe('where the number is in the JSON file'),
    pattern: z
      .string()
      .min(1)
      .optional()
      .describe('a regular expression (case-insensitive); its first capture group, else the match, is the number'),
    min: z.number().optional().describe('smallest accepted value (inclusive)'),
    max: z.number().optional().describe('largest accepted value (inclusive)'),
  })
  .superRefine((check, context) => {
    if ((check.path === undefined) === (check.pattern === undefined)) {
      context.addIssue({ code: 'custom', path: ['path'], message: "give exactly one of 'path' and 'pattern'" });
    }
    if (check.path !== undefined && check.file === undefined) {
      context.addIssue({ code: 'custom', path: ['file'], message: "'path' reads a JSON file: name it in 'file'" });
    }
    if (check.min === undefined && check.max === undefined) {
      context.addIssue({ code: 'custom', path: ['min'], message: "give 'min', 'max' or both" });
    }
    if (check.min !== undefined && check.max !== undefined && check.min > check.max) {
      context.addIssue({ code: 'custom', path: ['max'], message: `max ${check.max} is below min ${check.min}` });
    }
    if (check.pattern !== undefined) {
      try {
        new RegExp(check.pattern, 'iu');
      } catch (cause) {
        context.addIssue({ code: 'custom', path: ['pattern'], message: (cause as Error).message });
      }
    }
  });

const time = z.string().superRefine((text, context) => {
  const parsed = parseScheduleTime(text);
  if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.message });
});
const interval = z.strictObject({ start: time, end: time }).refine(
  ({ start, end }) => {
    const [from, to] = [timeOf(start), timeOf(end)];
    return Number.isNaN(from) || Number.isNaN(to) || from < to;
  },
  { message: 'an interval must end after it starts' },
);
const minutes = z.number().positive();

/** A `schedule` check. */
export const pacScheduleCheckSchema = z
  .strictObject({
    ...common,
    kind: z.literal('schedule'),
    file: sharedFile,
    path: jsonPath.default('').describe('where the meetings are in the JSON file (default: the whole file)'),
    availability: z
      .record(z.string().min(1), z.array(interval))
      .describe('participant name → the intervals they are free; a meeting must fit one interval of each participant'),
    participants: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'names every meeting must include (default: a meeting without a participants list includes everyone in availability)',
      ),
    durationMinutes: z
      .union([minutes, z.strictObject({ min: minutes.optional(), max: minutes.optional() })])
      .optional()
      .describe('each meeting lasts exactly this many minutes, or between min and max'),
    count: z.int().positive().optional().describe('the number of meetings the deliverable must hold'),
    noOverlap: z.boolean().default(true).describe('no two meetings sharing a participant may overlap'),
  })
  .superRefine((check, context) => {
    for (const [position, name] of (check.participants ?? []).entries()) {
      if (check.availability[name] === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['participants', position],
          message: `'${name}' has no availability entry`,
        });
      }
    }
  });

/** One outcome check declaration, as a scenario file gives it. */
export const pacOutcomeCheckSchema = z.discriminatedUnion('kind', [
  pacJsonCheckSchema,
  pacNumberCheckSchema,
  pacScheduleCheckSchema,
]);
/** Parsed {@link pacOutcomeCheckSchema}. */
export type PacOutcomeCheck = z.infer<typeof pacOutcomeCheckSchema>;
/** A parsed `json` check. */
export type PacJsonCheck = z.infer<typeof pacJsonCheckSchema>;
/** A parsed `number` check. */
export type PacNumberCheck = z.infer<typeof pacNumberCheckSchema>;
/** A parsed `schedule` check. */
export type PacScheduleCheck = z.infer<typeof pacScheduleCheckSchema>;

/** The `checks.outcome` list: at least one check, ids unique. */
export const pacOutcomeChecksSchema = z
  .array(pacOutcomeCheckSchema)
  .min(1, 'give at least one check, or leave the field out')
  .superRefine((checks, context) => {
    const seen = new Set<string>();
    for (const [position, check] of checks.entries()) {
      if (seen.has(check.id)) {
        context.addIssue({ code: 'custom', path: [position, 'id'], message: `check id '${check.id}' is used twice` });
      }
      seen.add(check.id);
    }
  })
  .describe('deterministic checks on the final deliverable (our extension)');

function timeOf(text: string): number {
  const parsed = parseScheduleTime(text);
  return parsed.ok ? parsed.minutes : Number.NaN;
}
