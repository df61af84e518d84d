/**
 * Builds a run id `<yyyymmdd-hhmmss>-<suite>-<first 6 hex of planHash>` (architecture §6).
 * The time is taken in UTC so ids do not depend on the machine's time zone; characters of the
 * suite id that are unsafe in a directory name become `-`.
 */
export function createRunId({ now, suite, planHash }: { now: Date; suite: string; planHash: string }): string {
  if (!/^[0-9a-f]{6}/i.test(planHash)) {
    throw new TypeError(`planHash must start with 6 hex digits, got '${planHash}'`);
  }
  const pad = (value: number) => String(value).padStart(2, '0');
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const safeSuite = suite.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${date}-${time}-${safeSuite}-${planHash.slice(0, 6).toLowerCase()}`;
}
