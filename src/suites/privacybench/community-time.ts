/**
 * Time arithmetic for community data. Validity periods (timeline, attributes, relationships,
 * group memberships) are calendar dates (`YYYY-MM-DD`), and events (documents, messages,
 * sharing) are instants (ISO date-times with a zone). A date used as a lower bound means the
 * start of that day (UTC) and a date used as an upper bound means its end, so a relationship
 * ending on `2024-06-14` still covers a chat at `2024-06-14T18:00:00Z`.
 */

const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of an ISO date-time, or of a date's first instant (UTC). */
export function startMs(value: string): number {
  return Date.parse(isDateOnly(value) ? `${value}T00:00:00.000Z` : value);
}

/** Milliseconds since the epoch of an ISO date-time, or of a date's last millisecond (UTC). */
export function endMs(value: string): number {
  return isDateOnly(value) ? Date.parse(`${value}T00:00:00.000Z`) + DAY_MS - 1 : Date.parse(value);
}

/**
 * Whether the instant `at` lies in the closed window `[from, to]`; `to: null` is open-ended.
 * Bounds may be dates (whole days, see the file comment) or date-times.
 */
export function isWithinWindow({ from, to, at }: { from: string; to: string | null; at: string }): boolean {
  const instant = startMs(at);
  return instant >= startMs(from) && (to === null || instant <= endMs(to));
}

/** The ISO date-time (UTC, milliseconds) of `value`'s last instant: a date's end, or the date-time itself. */
export function endInstant(value: string): string {
  return new Date(endMs(value)).toISOString();
}

/** The ISO date-time (UTC) `days` whole days after the instant `value`. */
export function addDays(value: string, days: number): string {
  return new Date(startMs(value) + days * DAY_MS).toISOString();
}

function isDateOnly(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}
