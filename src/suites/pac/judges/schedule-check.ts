import type { PacScheduleCheck } from '../outcome-check-schema.js';
import { readJsonPath } from '../read-json-path.js';
import { parseScheduleTime } from '../schedule-time.js';
import {
  checkResult,
  type DeliverableInput,
  deliverableJson,
  missingResult,
  type OutcomeCheckResult,
} from './check-deliverable.js';

/** One meeting of a deliverable, read. */
type Meeting = { label: string; start: number; end: number; participants: string[] };

/** How many violated constraints an explanation lists before "and N more". */
const SHOWN_PROBLEMS = 5;

/**
 * A `schedule` outcome check over the meetings at `path` of the JSON `file` (a list of meetings,
 * or one meeting): each is `{ "start": "2026-03-02T10:00", "end": "…", "participants": [names] }`,
 * `participants` optional (absent: everyone the check's `availability` names). Constraints, all
 * of which must hold:
 * - every meeting has readable times and ends after it starts;
 * - it lasts `durationMinutes` (exactly, or within `{min, max}`);
 * - it includes every name of the check's `participants`;
 * - each of its participants has an availability interval that contains it whole (a participant
 *   the availability does not know is a violation: nothing says they are free);
 * - there are `count` meetings, when given;
 * - with `noOverlap` (default), no two meetings that share a participant overlap in time
 *   (touching ends do not overlap).
 * Names compare case-insensitively. Every violation is listed. A missing file or path follows
 * `ifMissing`; an empty list is a fail (no meeting was scheduled).
 */
export function runScheduleCheck({ check, files }: DeliverableInput & { check: PacScheduleCheck }): OutcomeCheckResult {
  const read = deliverableJson({ check, file: check.file, files });
  if (!read.ok) return read.result;
  const at = readJsonPath({ document: read.document, path: check.path });
  if (!at.found) return missingResult(check, `${read.path} has no ${at.missing}`);
  const entries = Array.isArray(at.value) ? at.value : [at.value];
  const where = check.path === '' ? read.path : `${read.path} ${check.path}`;
  if (entries.length === 0) return checkResult(check, 'fail', `${where} lists no meeting`);

  const key = (name: string) => name.trim().toLowerCase();
  const availability = new Map(
    Object.entries(check.availability).map(([name, intervals]) => [
      key(name),
      { name, intervals: intervals.map(({ start, end }) => ({ start: minutes(start), end: minutes(end) })) },
    ]),
  );
  const everyone = Object.keys(check.availability);
  const problems: string[] = [];
  const meetings: Meeting[] = [];
  entries.forEach((entry, position) => {
    const read = readMeeting({ entry, label: `meeting ${position + 1}`, everyone });
    if (typeof read === 'string') problems.push(read);
    else meetings.push(read);
  });
  if (check.count !== undefined && entries.length !== check.count) {
    problems.push(`${entries.length} meeting(s), expected ${check.count}`);
  }
  for (const meeting of meetings) {
    const length = meeting.end - meeting.start;
    const duration = check.durationMinutes;
    if (typeof duration === 'number' && length !== duration) {
      problems.push(`${meeting.label} lasts ${length} min, expected ${duration}`);
    } else if (typeof duration === 'object') {
      if (
        (duration.min !== undefined && length < duration.min) ||
        (duration.max !== undefined && length > duration.max)
      ) {
        problems.push(`${meeting.label} lasts ${length} min, expected ${duration.min ?? 0}–${duration.max ?? '∞'}`);
      }
    }
    const present = new Set(meeting.participants.map(key));
    for (const name of check.participants ?? []) {
      if (!present.has(key(name))) problems.push(`${meeting.label} leaves out ${name}`);
    }
    for (const name of meeting.participants) {
      const known = availability.get(key(name));
      if (known === undefined) {
        problems.push(`${meeting.label}: no availability is known for ${name}`);
        continue;
      }
      const fits = known.intervals.some((free) => free.start <= meeting.start && meeting.end <= free.end);
      if (!fits) problems.push(`${meeting.label} is outside ${known.name}'s availability`);
    }
  }
  if (check.noOverlap) {
    for (const [index, left] of meetings.entries()) {
      for (const right of meetings.slice(index + 1)) {
        const shared = left.participants.filter((name) => right.participants.some((other) => key(other) === key(name)));
        if (shared.length > 0 && left.start < right.end && right.start < left.end) {
          problems.push(`${left.label} and ${right.label} overlap for ${shared.join(', ')}`);
        }
      }
    }
  }
  if (problems.length === 0) {
    return checkResult(check, 'pass', `${where}: ${meetings.length} meeting(s) meet every constraint`);
  }
  const shown = problems.slice(0, SHOWN_PROBLEMS).join('; ');
  const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : '';
  return checkResult(check, 'fail', `${where}: ${shown}${more}`);
}

/** One meeting entry read, or what is wrong with it. */
function readMeeting({
  entry,
  label,
  everyone,
}: {
  entry: unknown;
  label: string;
  everyone: readonly string[];
}): Meeting | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    return `${label} is not an object with start and end`;
  }
  const record = entry as Record<string, unknown>;
  const times: number[] = [];
  for (const field of ['start', 'end'] as const) {
    const value = record[field];
    if (typeof value !== 'string') return `${label} has no ${field} time`;
    const parsed = parseScheduleTime(value);
    if (!parsed.ok) return `${label} ${field}: ${parsed.message}`;
    times.push(parsed.minutes);
  }
  const [start = 0, end = 0] = times;
  if (end <= start) return `${label} ends before it starts`;
  const listed = record.participants;
  if (listed !== undefined && !(Array.isArray(listed) && listed.every((name) => typeof name === 'string'))) {
    return `${label} participants is not a list of names`;
  }
  return { label, start, end, participants: listed === undefined ? [...everyone] : listed };
}

function minutes(text: string): number {
  const parsed = parseScheduleTime(text);
  return parsed.ok ? parsed.minutes : Number.NaN;
}
