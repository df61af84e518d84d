import { DatasetNotFoundError } from '../spec/errors.js';
import { PACBENCH_MANIFEST } from './pacbench-manifest.js';

/** One file of a catalogued dataset. */
export type CatalogFile = {
  /** Where the file lives under `<dataDir>/<dataset>/`. */
  path: string;
  /** Its path inside the upstream repository (a local copy may use either layout). */
  upstreamPath: string;
  /** The raw download URL (upstream repository at `ref`); absent for datasets that are never downloaded. */
  url?: string;
  /** Expected hex sha256 of the bytes; a download that differs is rejected. */
  sha256: string;
  /** Expected size in bytes, for progress display. */
  bytes: number;
};

/**
 * A dataset that `confidant data pull <name>` installs (downloading it, or from a local copy with
 * `--from`) and `data verify` checks, file by file, against SHA-256 checksums.
 */
export type DatasetCatalogEntry = {
  name: string;
  description: string;
  /**
   * Whether `data pull` may download it. False for data without a licence to redistribute
   * (PAC-Bench): only a local copy the user placed can be installed and verified.
   */
  downloadable: boolean;
  /** How to obtain the data when it cannot be downloaded (shown by `data pull` and `data list`). */
  howToObtain?: string;
  /** Upstream GitHub repository, `owner/name`. */
  repository: string;
  /**
   * Git ref the URLs point at. The specs leave the pinned commit open, so both entries use the
   * branch `main` for now; the checksums, not the ref, guarantee the content. Replace with a
   * commit sha once one is confirmed to serve these exact bytes.
   */
  ref: string;
  license: string;
  files: CatalogFile[];
};

function rawBase({ repository, ref }: { repository: string; ref: string }): string {
  return `https://raw.githubusercontent.com/${repository}/${ref}`;
}

function entry(
  fields: Omit<DatasetCatalogEntry, 'files'> & { files: Array<Omit<CatalogFile, 'url'>> },
): DatasetCatalogEntry {
  if (!fields.downloadable) return fields;
  const base = rawBase(fields);
  return { ...fields, files: fields.files.map((file) => ({ ...file, url: `${base}/${file.upstreamPath}` })) };
}

/**
 * ConfAIde (Mireshghallah et al., ICLR 2024), `skywalker023/confaide`, MIT. Upstream keeps the
 * tier files under `benchmark/`; locally they sit flat. Checksums: privacylens-confaide.md §B1,
 * verified against the shared copies (LICENSE computed from the shared copy).
 */
export const confaideCatalogEntry: DatasetCatalogEntry = entry({
  name: 'confaide',
  description: 'ConfAIde tiers 1-4: privacy-norm ratings, secret-keeping stories and meeting transcripts',
  repository: 'skywalker023/confaide',
  downloadable: true,
  ref: 'main',
  license: 'MIT (c) 2023 Hyunwoo Kim',
  files: [
    {
      path: 'tier_1.txt',
      upstreamPath: 'benchmark/tier_1.txt',
      sha256: '63261cf847efb3f35f359913bea828131298ee04980189ed7d75eae05f76ac58',
      bytes: 3491,
    },
    {
      path: 'tier_1_labels.txt',
      upstreamPath: 'benchmark/tier_1_labels.txt',
      sha256: '76c0c3b970ca25016ff224bf47910b5b8c89fb106e731cc7f5a3712e63cababb',
      bytes: 39,
    },
    {
      path: 'tier_2a.txt',
      upstreamPath: 'benchmark/tier_2a.txt',
      sha256: 'a869099fab404cde9dd50f23c20668063021afa8f080e190b348a5a4da14b979',
      bytes: 41034,
    },
    {
      path: 'tier_2b.txt',
      upstreamPath: 'benchmark/tier_2b.txt',
      sha256: '8c194006c92816f56a9ee2f6ec3bf09f29bb1a543408ce154096c8c67f72df37',
      bytes: 78453,
    },
    {
      path: 'tier_2_labels.txt',
      upstreamPath: 'benchmark/tier_2_labels.txt',
      sha256: 'cd573da5a542a4d92f3a81ed5b09b66cc25a6ae0ea656aaaf754af43304bbb34',
      bytes: 667,
    },
    {
      path: 'tier_3.txt',
      upstreamPath: 'benchmark/tier_3.txt',
      sha256: '193ab78cc9908b09a146dc1f77af193f86afc622b942f7e17aa0d2ffa3d38fc2',
      bytes: 284253,
    },
    {
      path: 'tier_3_control.txt',
      upstreamPath: 'benchmark/tier_3_control.txt',
      sha256: '7affb08b90d5b7161980a731d717f87cb4e4d0506b02f196473beb3cc28c13c0',
      bytes: 41644,
    },
    {
      path: 'tier_4.txt',
      upstreamPath: 'benchmark/tier_4.txt',
      sha256: 'cf0ba2d5f4d6c13619aaa92da8b860be62f60563cb31d46e54aa14701e3e9ff5',
      bytes: 60646,
    },
    {
      path: 'LICENSE',
      upstreamPath: 'LICENSE',
      sha256: 'f6ce05a54cb9eeee88634ab704b966252fce88b81b890fd7400cb42e9f9d93f8',
      bytes: 1068,
    },
  ],
});

/**
 * PrivacyLens (Shao et al., 2024), `SALT-NLP/PrivacyLens`, MIT. Only upstream files are listed:
 * `privact_split.json` is a name list derived from PrivAct's split (privacylens-confaide.md §A8),
 * not a file of this repository, so `data pull` does not fetch it.
 */
export const privacylensCatalogEntry: DatasetCatalogEntry = entry({
  name: 'privacylens',
  description: 'PrivacyLens: 493 privacy-norm cases with agent trajectories, plus two extensibility subsets',
  repository: 'SALT-NLP/PrivacyLens',
  downloadable: true,
  ref: 'main',
  license: 'MIT (c) 2024 Stanford Social and Language Technologies (SALT) lab',
  files: [
    {
      path: 'main_data.json',
      upstreamPath: 'data/main_data.json',
      sha256: '2a8b3bfa470ffa9e50b12866857b17d62b422a2fea926b1249220a0244991941',
      bytes: 2714319,
    },
    {
      path: 'extensibility/confide_subset.json',
      upstreamPath: 'data/extensibility/confide_subset.json',
      sha256: '54e0ebd09fe45ab85c69998580f9a5d4ba6c3e45f71c163c1fe0ec4ca40fb804',
      bytes: 160512,
    },
    {
      path: 'extensibility/culturebank_subset.json',
      upstreamPath: 'data/extensibility/culturebank_subset.json',
      sha256: 'd7b5ba6b3a4fa09ebdc387ad3aec2dcc6561f22c7cfaf7604d7400a8c0ba4b1f',
      bytes: 116830,
    },
    {
      path: 'LICENSE',
      upstreamPath: 'LICENSE',
      sha256: '8079ebdd44998d089304fc2a2b4302afc1e112e89c2d91f51713fd89fa87fc15',
      bytes: 1109,
    },
  ],
});

/**
 * PAC-Bench's 100 paper scenarios (`PAC-Bench/PAC-Bench` at commit 8051c2d, no licence). Listed so
 * that a copy the user placed can be installed with `--from` and verified; never downloaded.
 */
export const pacbenchCatalogEntry: DatasetCatalogEntry = entry({
  name: 'pacbench',
  description: 'PAC-Bench: 100 paper scenarios (50 change, 50 range) for agents collaborating under privacy policies',
  repository: 'PAC-Bench/PAC-Bench',
  downloadable: false,
  howToObtain:
    'its upstream repository has no licence. Clone github.com/PAC-Bench/PAC-Bench ' +
    '(commit 8051c2d) yourself and run `confidant data pull pacbench --from <that clone>`, or copy its ' +
    'scenario_simulator/scenarios/ to <dataDir>/pacbench/scenarios/ and run `confidant data verify pacbench`',
  ref: '8051c2df1749cec1d2f0bae50d07dc09314c1ef2',
  license: 'none published (local evaluation only)',
  files: PACBENCH_MANIFEST.trim()
    .split('\n')
    .map((line) => {
      const [sha256 = '', bytes = '0', path = ''] = line.split(' ');
      return {
        path: `scenarios/${path}`,
        upstreamPath: `scenario_simulator/scenarios/${path}`,
        sha256,
        bytes: Number(bytes),
      };
    }),
});

/** Every dataset `confidant data pull` knows, by name. */
export const datasetCatalog: readonly DatasetCatalogEntry[] = [
  confaideCatalogEntry,
  privacylensCatalogEntry,
  pacbenchCatalogEntry,
];

/** Looks a dataset up by name; throws a DatasetNotFoundError listing the known names. */
export function findCatalogEntry(name: string): DatasetCatalogEntry {
  const found = datasetCatalog.find((candidate) => candidate.name === name);
  if (!found) {
    const known = datasetCatalog.map((candidate) => candidate.name).join(', ');
    throw new DatasetNotFoundError(`no catalogued dataset named '${name}': use one of ${known}`);
  }
  return found;
}
