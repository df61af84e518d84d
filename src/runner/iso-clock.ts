/**
 * A clock reading the current time as an ISO 8601 string (`Date.prototype.toISOString`), from
 * `now` when given, else from `Date.now()`. The string is built once per millisecond and handed
 * out again while the clock still reads the same millisecond: a run stamps several events per
 * sample, and hundreds of samples finish in the same tick, so most readings are the last one.
 * An invalid date throws as `toISOString` does.
 */
export function createIsoClock(now?: () => Date): () => string {
  let lastMs = Number.NaN;
  let last = '';
  if (now === undefined) {
    return () => {
      const ms = Date.now();
      if (ms !== lastMs) {
        last = new Date(ms).toISOString();
        lastMs = ms;
      }
      return last;
    };
  }
  return () => {
    const date = now();
    const ms = date.getTime();
    if (ms !== lastMs) {
      last = date.toISOString();
      lastMs = ms;
    }
    return last;
  };
}
