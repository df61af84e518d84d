/**
 * Calendar-day arithmetic for planning generated documents. Dates are `YYYY-MM-DD` (UTC days);
 * instants are ISO date-times in UTC with whole seconds (`2024-03-20T18:42:00Z`).
 */

const DAY_MS = 86_400_000;

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The date `days` days after `date` (negative goes back). */
export function shiftDate(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** Days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The later of two dates. */
export function laterDate(a: string, b: string): string {
  return a >= b ? a : b;
}

/** The earlier of two dates. */
export function earlierDate(a: string, b: string): string {
  return a <= b ? a : b;
}

/**
 * The overlap of the closed day windows `[a.from, a.to]` and `[b.from, b.to]` (`to: null` is
 * open-ended), or null when they do not meet.
 */
export function overlap(
  a: { from: string; to: string | null },
  b: { from: string; to: string | null },
): { from: string; to: string | null } | null {
  const from = laterDate(a.from, b.from);
  const to = a.to === null ? b.to : b.to === null ? a.to : earlierDate(a.to, b.to);
  return to !== null && to < from ? null : { from, to };
}

/**
 * Cuts `[start, end]` into `steps` consecutive windows of (nearly) equal length. With more steps
 * than days, the later windows repeat the last day.
 */
export function stepWindows({
  start,
  end,
  steps,
}: {
  start: string;
  end: string;
  steps: number;
}): Array<{ from: string; to: string }> {
  const total = daysBetween(start, end) + 1;
  const windows: Array<{ from: string; to: string }> = [];
  for (let step = 0; step < steps; step += 1) {
    const first = Math.min(Math.floor((step * total) / steps), total - 1);
    const last = Math.max(first, Math.floor(((step + 1) * total) / steps) - 1);
    windows.push({ from: shiftDate(start, first), to: shiftDate(start, Math.min(last, total - 1)) });
  }
  return windows;
}

/** The instant `minutes` minutes into the UTC day `date`, e.g. `2024-03-20T09:30:00Z`. */
export function instantOn(date: string, minutes: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

/** The instant `minutes` minutes after `instant`. */
export function addMinutes(instant: string, minutes: number): string {
  return new Date(Date.parse(instant) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}
