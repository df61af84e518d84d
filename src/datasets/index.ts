export { datasetContentHash, type FileHash, hashDatasetFiles, sha256File, sha256Hex } from './checksum.js';
export { DATA_DIR_ENV, requireDatasetDir, resolveDataDir } from './data-dir.js';
export {
  type CatalogFile,
  confaideCatalogEntry,
  type DatasetCatalogEntry,
  datasetCatalog,
  findCatalogEntry,
  privacylensCatalogEntry,
} from './dataset-catalog.js';
export {
  type FetchLike,
  type PulledFile,
  type PullProgress,
  type PullResult,
  pullDataset,
  type VerifiedFile,
  verifyDataset,
} from './pull-dataset.js';
