import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256Hex } from '../checksum.js';
import type { DatasetCatalogEntry } from '../dataset-catalog.js';

/** The files of a small dataset of our own (test fixture; not upstream data), by local path. */
export const FIXTURE_FILES: Readonly<Record<string, { upstreamPath: string; text: string }>> = {
  'notes.txt': { upstreamPath: 'data/notes.txt', text: 'Ana keeps her notes private.\nBo shares his.\n' },
  'sub/table.json': { upstreamPath: 'data/sub/table.json', text: '{"rows": [1, 2, 3]}\n' },
  LICENSE: { upstreamPath: 'LICENSE', text: 'Fixture licence: for tests only.\n' },
};

/** A catalogue entry for the fixture dataset `fixture`, with the real checksums of FIXTURE_FILES. */
export function fixtureCatalogEntry({ downloadable = true }: { downloadable?: boolean } = {}): DatasetCatalogEntry {
  return {
    name: 'fixture',
    description: 'a small dataset of our own for tests',
    repository: 'example/fixture',
    downloadable,
    ...(downloadable ? {} : { howToObtain: 'place it yourself' }),
    ref: 'main',
    license: 'test only',
    files: Object.entries(FIXTURE_FILES).map(([path, { upstreamPath, text }]) => ({
      path,
      upstreamPath,
      sha256: sha256Hex(text),
      bytes: Buffer.byteLength(text),
      ...(downloadable ? { url: `https://example.invalid/${upstreamPath}` } : {}),
    })),
  };
}

/**
 * Writes a copy of the fixture dataset under `root`: in the dataset's own layout, the upstream
 * repository's layout, or as a data dir holding `fixture/`. `tamper` files get other bytes,
 * `omit` files are left out.
 */
export function writeFixtureCopy({
  root,
  layout = 'dataset',
  tamper = [],
  omit = [],
}: {
  root: string;
  layout?: 'dataset' | 'upstream' | 'data-dir';
  tamper?: readonly string[];
  omit?: readonly string[];
}): string {
  for (const [path, { upstreamPath, text }] of Object.entries(FIXTURE_FILES)) {
    if (omit.includes(path)) continue;
    const relative = layout === 'upstream' ? upstreamPath : layout === 'data-dir' ? join('fixture', path) : path;
    const target = join(root, relative);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, tamper.includes(path) ? `${text}tampered\n` : text);
  }
  return root;
}
