export { createRunDirectory } from './create-run-directory.js';
export { createRunId } from './create-run-id.js';
export { DirectoryRunStore, RUN_FILES } from './directory-run-store.js';
export { InMemoryRunStore } from './in-memory-run-store.js';
export { LatestRecordLines } from './latest-record-lines.js';
export {
  halfWrittenMergeError,
  MERGE_INCOMPLETE_MARKER,
  type MergedRun,
  mergeRuns,
  type RunStoreReader,
  type RunStoreWriter,
  refuseHalfWrittenMerge,
} from './merge-runs.js';
export { parseRecordLine, readLatestRecords } from './read-latest-records.js';
export { encodeRecordLine, resolveRecordRefs } from './record-line.js';
export {
  type AcquiredRunLock,
  type AcquireRunLockOptions,
  acquireRunLock,
  processIsAlive,
  RUN_LOCK_FILE,
  type RunLock,
  type RunLockHolder,
  readRunLock,
} from './run-lock.js';
export type { StoreWriteOptions } from './validate-run-data.js';
export { writeFileAtomic } from './write-file-atomic.js';
