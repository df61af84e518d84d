export { datasetContentHash, type FileHash, hashDatasetFiles, sha256File, sha256Hex } from './checksum.js';
export { DATA_DIR_ENV, requireDatasetDir, requireDatasetFiles, resolveDataDir, restoreHint } from './data-dir.js';
export {
  type CatalogFile,
  confaideCatalogEntry,
  type DatasetCatalogEntry,
  datasetCatalog,
  findCatalogEntry,
  pacbenchCatalogEntry,
  privacylensCatalogEntry,
} from './dataset-catalog.js';
export { extractArchive, isArchivePath } from './extract-archive.js';
export { type DatasetFileProblemKind, type DatasetFileState, inspectDatasetFile } from './inspect-dataset-file.js';
export {
  type InstalledFile,
  type InstallFromCopyResult,
  type InstallProgress,
  installDatasetFromCopy,
} from './install-from-copy.js';
export {
  checkCatalogFile,
  type FetchLike,
  type PulledFile,
  type PullProgress,
  type PullResult,
  pullDataset,
  type VerifiedFile,
  verifyDataset,
} from './pull-dataset.js';
