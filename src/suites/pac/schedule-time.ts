/** What {@link parseScheduleTime} returns: minutes on one time line, or why the text is not a time. */
export type ScheduleTime = { ok: true; minutes: number } | { ok: false; message: string };

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A schedule time of an outcome check or a deliverable: `YYYY-MM-DDTHH:MM` (a space for the `T`,
 * optional `:SS`), with an optional zone `Z` or `±HH:MM`. Times without a zone are read as written
 * (all on one clock, as a scenario that names a single office's hours means them); with a zone,
 * they are moved to that clock's UTC. Returns minutes since 1970-01-01 00:00 on that line, or
 * a message naming the expected form.
 */
export function parseScheduleTime(text: string): ScheduleTime {
  const match = TIME.exec(text.trim());
  if (match === null) {
    return {
      ok: false,
      message: `'${text}' is not a time: write YYYY-MM-DDTHH:MM (optionally :SS and a zone, Z or +01:00)`,
    };
  }
  const [, year, month, day, hour, minute, second, zone] = match;
  const millis = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second ?? '0'),
  );
  const date = new Date(millis);
  if (
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second ?? '0') > 59 ||
    date.getUTCDate() !== Number(day) ||
    date.getUTCMonth() !== Number(month) - 1
  ) {
    return { ok: false, message: `'${text}' is not a calendar time` };
  }
  return { ok: true, minutes: millis / 60_000 - zoneOffsetMinutes(zone) };
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [hours, minutes] = zone.slice(1).split(':').map(Number);
  return sign * ((hours ?? 0) * 60 + (minutes ?? 0));
}
