import type { Command } from 'commander';
import { datasetCatalog, pullDataset, resolveDataDir, verifyDataset } from '../../datasets/index.js';
import { ChecksumMismatchError } from '../../spec/errors.js';
import { EXIT } from '../cli-io.js';
import type { CommandContext } from '../program.js';

/** `confidant data pull|verify|list`: public datasets, checked against their checksums. */
export function registerData({ program, context }: { program: Command; context: CommandContext }): void {
  const data = program.command('data').description('Download and check the public datasets.');
  const names = datasetCatalog.map((entry) => entry.name).join(', ');

  data
    .command('pull')
    .description('Download a dataset into the data dir and verify every file against its SHA-256.')
    .argument('<name>', `dataset (${names})`)
    .option('--data-dir <dir>', 'dataset directory (default CONFIDANT_DATA_DIR, else ~/.cache/confidant/datasets)')
    .option('--mirror <url>', 'download from a mirror with the upstream repository layout instead of upstream')
    .action(async (name: string, flags: { dataDir?: string; mirror?: string }) => {
      const { io } = context;
      const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env, home: io.home });
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
    .description('Check a dataset in the data dir against its catalogued checksums.')
    .argument('<name>', `dataset (${names})`)
    .option('--data-dir <dir>', 'dataset directory')
    .action(async (name: string, flags: { dataDir?: string }) => {
      const { io } = context;
      const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env, home: io.home });
      const result = await verifyDataset({ name, dataDir });
      for (const file of result.files) io.stdout(`${file.status.padEnd(8)} ${file.path}\n`);
      if (!result.ok) {
        throw new ChecksumMismatchError(
          `dataset '${name}' in ${result.dir} is incomplete or modified: run \`confidant data pull ${name}\` to restore it`,
        );
      }
      context.outcome.exitCode = EXIT.ok;
    });

  data
    .command('list')
    .description('List the datasets that can be pulled.')
    .action(() => {
      for (const entry of datasetCatalog) {
        context.io.stdout(`${entry.name.padEnd(12)} ${entry.description} (${entry.repository}, ${entry.license})\n`);
      }
    });
}
