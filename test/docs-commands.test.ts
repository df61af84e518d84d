import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerRegistry } from '../src/models/index.js';
import {
  type DocCommand,
  extractCommands,
  extractFiles,
  listDocFiles,
  PLACEHOLDER,
  readDoc,
} from './support/docs-markdown.js';
import { writePrivacyLensFixture } from './support/fixture-data.js';
import { runCliInProcess } from './support/run-cli-in-process.js';
import { fixtureDataDir, repoRoot, type UpstreamDatasetName, upstreamDataset } from './support/test-data.js';

/**
 * Every `confidant …` command in README.md and docs/ runs here, in process, in a temporary
 * working directory whose data dir holds the project's fixtures in the upstream formats (ConfAIde
 * tiers, four PrivacyLens cases) and whose `docs/` is the repository's (so `--data-dir
 * docs/suites/examples/…` works as in a clone). Commands of a block marked `<!-- needs: … -->`
 * (a real provider, the network, the upstream files) are listed as skipped with that reason.
 * `runs/<run-id>` (or any `runs/<…>`) stands for the run directories of the commands (run, demo, rescore) before it
 * in the same file, the most recent last.
 */

const files = listDocFiles(repoRoot);
const commandsByFile = files.map((file) => ({
  file,
  commands: extractCommands({ file, markdown: readDoc(repoRoot, file) }),
}));

/** A placeholder for every required API key, as the reader of the docs has their own keys set. */
const PLACEHOLDER_KEYS: Record<string, string> = Object.fromEntries(
  providerRegistry
    .filter((provider) => provider.apiKeyRequired === true && provider.apiKeyEnv?.[0] !== undefined)
    .map((provider) => [provider.apiKeyEnv![0]!, 'docs-placeholder-key']),
);

let root = '';
let cwd = '';
let env: Record<string, string> = {};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'confidant-docs-'));
  cwd = join(root, 'work');
  mkdirSync(cwd);
  symlinkSync(join(repoRoot, 'docs'), join(cwd, 'docs'));
  const dataDir = join(root, 'data');
  cpSync(join(fixtureDataDir, 'confaide'), join(dataDir, 'confaide'), { recursive: true });
  writePrivacyLensFixture(dataDir);
  // The reader has their keys set; a dry run checks that they are, and nothing here calls a provider.
  env = { CONFIDANT_DATA_DIR: dataDir, CONFIDANT_CACHE_DIR: join(root, 'cache'), ...PLACEHOLDER_KEYS };
});

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
  const all = commandsByFile.flatMap(({ commands }) => commands);
  const reasons = new Map<string, number>();
  for (const command of all) {
    if (command.needs !== undefined) reasons.set(command.needs, (reasons.get(command.needs) ?? 0) + 1);
  }
  const skipped = [...reasons].map(([reason, count]) => `${reason}: ${count}`).join('; ');
  console.log(
    `docs commands: ${all.length - [...reasons.values()].reduce((sum, n) => sum + n, 0)} of ${all.length} run; not run (needs …): ${skipped}`,
  );
});

const RUN_PLACEHOLDER = /^(?:\.\/)?runs\/<[^<>\s]+>$/;

/** The arguments with `runs/<…>` replaced by the latest run directories (in order). */
function substituteRuns(command: DocCommand, runDirs: readonly string[]): string[] {
  const wanted = command.args.filter((arg) => RUN_PLACEHOLDER.test(arg)).length;
  const available = runDirs.slice(-wanted);
  if (available.length < wanted) {
    throw new Error(`${command.file}:${command.line}: '${command.text}' names a run before any command made one`);
  }
  let next = 0;
  return command.args.map((arg) => (RUN_PLACEHOLDER.test(arg) ? available[next++]! : arg));
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

describe('every command in README.md and docs/ is a plain shell command', () => {
  it.each(commandsByFile.filter(({ commands }) => commands.length > 0))('$file', ({ commands }) => {
    const problems = commands.flatMap((command) =>
      command.problems.map((problem) => `${command.file}:${command.line}: ${command.text}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('every command in README.md and docs/ that needs no provider runs', () => {
  for (const { file, commands } of commandsByFile) {
    if (commands.length === 0) continue;
    describe.sequential(file, () => {
      const runDirs: string[] = [];
      beforeAll(() => {
        for (const doc of extractFiles(readDoc(repoRoot, file))) writeFileSync(join(cwd, doc.name), doc.content);
      });
      for (const command of commands) {
        const name = `${file}:${command.line}: confidant ${command.args.join(' ')}`;
        if (command.needs !== undefined) {
          it.skip(`[needs ${command.needs}] ${name}`, () => {});
          continue;
        }
        it(name, async () => {
          const args = substituteRuns(command, runDirs);
          const unresolved = args.filter((arg) => arg.match(PLACEHOLDER) !== null);
          expect(unresolved, 'placeholders a test cannot fill: mark the block <!-- needs: … -->').toEqual([]);
          const result = await runCliInProcess({ args, env, cwd });
          if (result.code !== command.exit) {
            throw new Error(
              `exit ${result.code}, expected ${command.exit}\nstderr:\n${result.stderr.slice(-2000)}\nstdout:\n${result.stdout.slice(-1000)}`,
            );
          }
          if (args[0] === 'run' || args[0] === 'demo' || args[0] === 'rescore') {
            if (!args.includes('--dry-run') && result.code === 0) runDirs.push(lastLine(result.stdout));
          }
        });
      }
    });
  }
});

/** The upstream dataset a suite's commands read; suites absent here run on built-in or example data. */
const UPSTREAM_OF_SUITE: Readonly<Record<string, UpstreamDatasetName>> = {
  confaide: 'confaide',
  privacylens: 'privacylens',
  'privact-tree': 'privacylens',
  pac: 'pacbench',
};

describe('every `run` that needs a provider still plans: the same command with --dry-run calls no model', () => {
  const runs = commandsByFile.flatMap(({ commands }) =>
    commands.filter((command) => command.needs !== undefined && command.args[0] === 'run'),
  );
  it('finds them', () => {
    expect(runs.length).toBeGreaterThan(10);
  });
  for (const command of runs) {
    const name = `${command.file}:${command.line}: confidant ${command.args.join(' ')} --dry-run`;
    if (!command.dryRun) {
      it.skip(`[dry-run: no] ${name}`, () => {});
      continue;
    }
    const dataset = UPSTREAM_OF_SUITE[command.args[1] ?? ''];
    const upstream = dataset === undefined ? undefined : upstreamDataset(dataset);
    it(name, upstream?.testOptions ?? {}, async () => {
      const dataEnv = upstream === undefined ? env : { ...env, CONFIDANT_DATA_DIR: upstream.dataDir };
      const result = await runCliInProcess({ args: [...command.args, '--dry-run'], env: dataEnv, cwd });
      expect(result.code, result.stderr.slice(-2000)).toBe(0);
      expect(result.stdout).toContain('dry run: no model is called');
    });
  }
});
