import type { Command } from 'commander';
import { resolveDataDir } from '../../datasets/data-dir.js';
import { datasetCatalog, findCatalogEntry } from '../../datasets/dataset-catalog.js';
import { ChecksumMismatchError, ConfidantError, DatasetNotFoundError } from '../../spec/errors.js';
import { EXIT } from '../cli-io.js';
import type { CommandContext } from '../program.js';

/** `confidant data pull|verify|list`: datasets, installed from upstream or a local copy and checked against their checksums. */
export function registerData({ program, context }: { program: Command; context: CommandContext }): void {
  const data = program
    .command('data')
    .description('Install (download, or copy from a local folder or archive) and check datasets.');
  const names = datasetCatalog.map((entry) => entry.name).join(', ');

  data
    .command('pull')
    .description(
      'Install a dataset into the data dir, verifying every file against its SHA-256: downloaded from upstream, ' +
        'or from a local copy with --from (offline).',
    )
    .argument('<name>', `dataset (${names})`)
    .option('--data-dir <dir>', 'dataset directory (default CONFIDANT_DATA_DIR, else ~/.cache/confidant/datasets)')
    .option('--mirror <url>', 'download from a mirror with the upstream repository layout instead of upstream')
    .option(
      '--from <copy>',
      'install from a local copy instead of downloading: a folder, a .tar.gz/.tgz/.tar archive or a file:// URL ' +
        '(dataset layout, upstream repository layout, or a data dir holding <name>/)',
    )
    .action(async (name: string, flags: { dataDir?: string; mirror?: string; from?: string }) => {
      const { io } = context;
      const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env, home: io.home });
      if (flags.from !== undefined && flags.mirror !== undefined) {
        throw new ConfidantError('--from and --mirror exclude each other: install from a local copy or a mirror', {
          userError: true,
        });
      }
      if (flags.from !== undefined) {
        // The archive and download code is loaded on first use, not by every command's start-up.
        const { installDatasetFromCopy } = await import('../../datasets/install-from-copy.js');
        const result = await installDatasetFromCopy({
          name,
          dataDir,
          from: flags.from,
          onProgress: (progress) =>
            io.stderr(`[${progress.index + 1}/${progress.total}] ${progress.path}: ${progress.status}\n`),
        });
        const copied = result.files.filter((file) => file.status === 'copied').length;
        io.stderr(
          `${result.name}: ${copied} copied from ${result.source}, ${result.files.length - copied} already present, ` +
            'all verified\n',
        );
        io.stdout(`${result.dir}\n`);
        return;
      }
      const { pullDataset } = await import('../../datasets/pull-dataset.js');
      const result = await pullDataset({
        name,
        dataDir,
        ...(flags.mirror ? { baseUrl: flags.mirror.replace(/\/+$/, '') } : {}),
        onProgress: (progress) =>
          io.stderr(`[${progress.index + 1}/${progress.total}] ${progress.path}: ${progress.status}\n`),
      });
      const downloaded = result.files.filter((file) => file.status === 'downloaded').length;
      io.stderr(
        `${result.name}: ${downloaded} downloaded, ${result.files.length - downloaded} already present, all verified\n`,
      );
      io.stdout(`${result.dir}\n`);
    });

  data
    .command('verify')
    .description('Check a dataset in the data dir against its catalogued checksums, listing every bad file.')
    .argument('<name>', `dataset (${names})`)
    .option('--data-dir <dir>', 'dataset directory')
    .action(async (name: string, flags: { dataDir?: string }) => {
      const { io } = context;
      const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env, home: io.home });
      const { verifyDataset } = await import('../../datasets/pull-dataset.js');
      const result = await verifyDataset({ name, dataDir });
      for (const file of result.files) {
        io.stdout(`${file.status.padEnd(8)} ${file.path}${file.status === 'ok' ? '' : `: ${file.detail}`}\n`);
      }
      const bad = result.files.filter((file) => file.status !== 'ok');
      if (bad.length > 0) {
        const entry = findCatalogEntry(name);
        const fix = entry.downloadable
          ? `run \`confidant data pull ${name}\` (offline: \`--from <dir|file.tar.gz>\`) to restore them`
          : `restore them from your copy with \`confidant data pull ${name} --from <your copy>\``;
        const message =
          `dataset '${name}' in ${result.dir}: ${bad.length} of ${result.files.length} files missing or altered ` +
          `(${bad.map((file) => file.path).join(', ')}): ${fix}`;
        throw bad.every((file) => file.status !== 'mismatch')
          ? new DatasetNotFoundError(message)
          : new ChecksumMismatchError(message);
      }
      context.outcome.exitCode = EXIT.ok;
    });

  data
    .command('list')
    .description('List the catalogued datasets and how each is obtained.')
    .action(() => {
      for (const entry of datasetCatalog) {
        const how = entry.downloadable ? '' : ' [not downloadable: install a local copy with --from]';
        context.io.stdout(
          `${entry.name.padEnd(12)} ${entry.description} (${entry.repository}, ${entry.license})${how}\n`,
        );
      }
    });
}
