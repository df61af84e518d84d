import { PlanValidationError } from '../spec/errors.js';
import type { RunHeader } from '../spec/run-record.js';

/** The directories a recorded run is read with again. */
export type RecordedDirectories = {
  dataDir: string;
  /** Undefined: the run caches nowhere. */
  cacheDir: string | undefined;
};

/**
 * The data and cache directories `resume` and `rescore` use for a recorded run: the caller's,
 * else those the header's invocation records; a suite with built-in data reads no data directory
 * (`.`). A header that records no data directory, with none given, is a user error naming the
 * dataset (`purpose` ends the message: "to resume it").
 */
export function recordedDirectories({
  header,
  location,
  dataDir,
  cacheDir,
  purpose,
}: {
  header: Pick<RunHeader, 'invocation' | 'dataset'>;
  /** The run directory, as messages name it. */
  location: string;
  dataDir: string | undefined;
  cacheDir: string | undefined;
  purpose?: string;
}): RecordedDirectories {
  const recorded = header.invocation;
  const data = dataDir ?? recorded?.dataDir ?? (header.dataset.hash === 'built-in' ? '.' : undefined);
  if (data === undefined) {
    throw new PlanValidationError(
      `${location} records no data directory; give the data directory its dataset ${header.dataset.name} is in${purpose === undefined ? '' : ` ${purpose}`}`,
    );
  }
  return { dataDir: data, cacheDir: cacheDir ?? recorded?.cacheDir };
}
