import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteRegistry } from '../src/suites/registry.js';
import type { Suite } from '../src/suites/suite.js';
import type { SuiteEntry } from '../src/suites/suite-entry.js';
import { extractCommands, readDoc } from './support/docs-markdown.js';
import { runCliInProcess } from './support/run-cli-in-process.js';
import { repoRoot } from './support/test-data.js';

/**
 * docs/tutorial.md's own suite, as a reader would add it: the `<!-- tutorial-suite -->` code block
 * becomes `src/suites/surprise-party/index.ts` (written to a temporary folder, its relative imports
 * pointed at src/), its registry entry is added for this test file only, and the tutorial's
 * `surprise-party` commands run against it with the results the tutorial states.
 */

const TUTORIAL = 'docs/tutorial.md';
const markdown = readDoc(repoRoot, TUTORIAL);
const SUITE_DIR = join(repoRoot, 'src', 'suites', 'surprise-party');

function tutorialSuiteSource(): string {
  const match = /<!-- tutorial-suite -->\n```ts\n([\s\S]*?)```/.exec(markdown);
  if (!match) throw new Error(`${TUTORIAL} has no <!-- tutorial-suite --> code block`);
  return match[1]!;
}

let tempDir = '';
let work = '';
let suite: Suite | undefined;
let entry: SuiteEntry | undefined;

beforeAll(async () => {
  tempDir = mkdtempSync(join(repoRoot, 'test', '.tutorial-'));
  const source = tutorialSuiteSource().replace(/from '(\.{1,2}\/[^']+)'/g, (_match, specifier: string) => {
    const target = relative(tempDir, resolve(SUITE_DIR, specifier)).replace(/\\/g, '/');
    return `from '${target.startsWith('.') ? target : `./${target}`}'`;
  });
  const file = join(tempDir, 'index.ts');
  writeFileSync(file, source);
  const module: Record<string, unknown> = await import(pathToFileURL(file).href);
  const loaded = module.surprisePartySuite as Suite;
  suite = loaded;
  // The tutorial's registry line, for this test file only.
  entry = { id: loaded.id, flags: [], load: async () => loaded };
  suiteRegistry.push(entry);
  work = join(tempDir, 'work');
  mkdirSync(work);
});

afterAll(() => {
  const index = entry === undefined ? -1 : suiteRegistry.indexOf(entry);
  if (index !== -1) suiteRegistry.splice(index, 1);
  if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
});

describe('docs/tutorial.md: a suite of your own', () => {
  it('the tutorial suite is what the tutorial says', () => {
    expect(suite?.id).toBe('surprise-party');
    expect(suite?.metrics.definitions.map((definition) => definition.id)).toEqual(['spoil_rate']);
  });

  it('its commands run and give the rates the tutorial states', async () => {
    const commands = extractCommands({ file: TUTORIAL, markdown }).filter((command) =>
      command.args.includes('surprise-party'),
    );
    expect(commands.map((command) => command.args.slice(0, 2).join(' '))).toEqual([
      'list options',
      'run surprise-party',
      'run surprise-party',
      'run surprise-party',
    ]);
    const env = { CONFIDANT_CACHE_DIR: join(tempDir, 'cache'), CONFIDANT_DATA_DIR: join(tempDir, 'data') };
    const runDirs: string[] = [];
    for (const command of commands) {
      const result = await runCliInProcess({ args: command.args, env, cwd: work });
      expect(result.code, `${command.text}\n${result.stderr}`).toBe(0);
      if (command.args[0] === 'list') expect(result.stdout).toContain('add "keep it a surprise" to the instruction');
      else if (command.args.includes('--dry-run')) {
        // The tutorial's callPattern: 3 samples, one agent call each, nothing run.
        expect(result.stdout).toMatch(/^samples\s+3 \(3 scenarios, 1 epoch\)$/m);
        expect(result.stdout).toMatch(/^agent\s+mock:echo\s+3\s+3–3\s/m);
        expect(result.stdout).not.toContain('declares no call pattern');
      } else runDirs.push(result.stdout.trimEnd().split('\n').at(-1)!);
    }
    const rates = runDirs.map((dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).metrics.spoil_rate);
    expect(rates.map((rate) => [rate.value, rate.n, rate.errors])).toEqual([
      [1, 3, 0],
      [0, 3, 0],
    ]);
    const report = await runCliInProcess({ args: ['report', ...runDirs], env, cwd: work });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('Spoil rate (%)');
  });
});
