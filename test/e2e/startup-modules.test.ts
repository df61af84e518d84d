import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAIServer } from '../support/mock-openai-server.js';
import { repoRoot } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';

/**
 * What the CLI loads at start-up, as a set of modules (never a time): a `--import` hook in the
 * child records every module the ESM loader loads and every CommonJS `require`, and the tests
 * assert on that set. `--help` must load no suite implementation, no AI SDK provider, no `yaml`,
 * no MCP, no SQLite, no report/retrieval/generation/store code; a run loads only its own suite.
 */

// The hook: ESM loads are recorded in the hooks thread, CommonJS loads on the main thread.
const HOOK = `
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
const log = process.env.CONFIDANT_MODULE_LOG;
register(
  'data:text/javascript,' +
    encodeURIComponent(\`
      import { appendFileSync } from 'node:fs';
      let log;
      export function initialize(data) { log = data.log; }
      export async function load(url, context, next) { appendFileSync(log, url + '\\\\n'); return next(url, context); }
    \`),
  { data: { log } },
);
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try { appendFileSync(log, 'cjs:' + Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
  return load.apply(this, arguments);
};
`;

let work = '';
let hook = '';
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-startup-'));
  hook = join(work, 'module-log-hook.mjs');
  writeFileSync(hook, HOOK);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Runs the CLI (through tsx, as the other e2e tests do) and returns the modules it loaded. The
 * hook is registered after tsx's, so it runs first in the chain and sees every module.
 */
function loadedModules(args: string[]): { modules: string[]; code: number | null; stderr: string } {
  const { command, log } = childCommand(args);
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd: work,
    encoding: 'utf8',
    env: childEnv(log),
  });
  return { modules: readModuleLog(log), code: result.status, stderr: result.stderr };
}

/**
 * {@link loadedModules} without blocking this process, for a child that talks to a server
 * running in it (the loopback mock).
 */
async function loadedModulesAsync(args: string[]): Promise<{ modules: string[]; code: number | null; stderr: string }> {
  const { command, log } = childCommand(args);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: work,
    env: childEnv(log),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { modules: readModuleLog(log), code, stderr };
}

function childCommand(args: string[]): { command: string[]; log: string } {
  const log = join(work, `modules-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return {
    command: [
      process.execPath,
      '--import',
      tsxLoader,
      '--import',
      pathToFileURL(hook).href,
      join(repoRoot, 'src', 'cli', 'main.ts'),
      ...args,
    ],
    log,
  };
}

const childEnv = (log: string) => ({
  PATH: process.env.PATH ?? '',
  CONFIDANT_MODULE_LOG: log,
  CONFIDANT_CACHE_DIR: join(work, 'cache'),
});

function readModuleLog(log: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/\\/g, '/'));
}

/**
 * A suite's implementation: anything in its folder but its registry entry and its model-role
 * declarations (`*-roles.ts`, four lines each, which the runner's role registry lists).
 */
const suiteCode = (modules: string[], except?: string) =>
  modules.filter((url) => {
    const match = /\/src\/suites\/([^/]+)\/(.+)$/.exec(url);
    return match !== null && match[1] !== except && !/^[a-z-]+-(entry|roles)\.ts$/.test(match[2]!);
  });

const matching = (modules: string[], pattern: RegExp) => modules.filter((url) => pattern.test(url));

const AI_SDK = /\/node_modules\/(ai|@ai-sdk\/(openai|anthropic|google|openai-compatible))\//;
const YAML = /\/node_modules\/yaml\//;
const MCP = /\/node_modules\/@modelcontextprotocol\//;
const SQLITE = /\/node_modules\/(better-sqlite3|sqlite-vec)/;
const ZOD = /\/node_modules\/zod\//;
// Node's built-in fetch (undici) shows no module of its own: the model registry and the
// provider modules are what load it, so their absence is asserted instead.
const PROVIDERS = /\/src\/models\/(provider-registry|providers\/)/;
const LATER_LAYERS = /\/src\/(reports|retrieval|generation|store|judges|metrics|defenses|agents)\//;

describe('the built CLI (dist/, bundled by scripts/bundle-cli.mjs)', () => {
  // dist/ is what `npm run build` (and `npm ci`, through `prepare`) leaves behind.
  const builtMain = join(repoRoot, 'dist', 'cli', 'main.js');

  it.each([['--help'], ['run', 'confaide', '--help']])(
    'confidant %s loads the bundle, not the module tree',
    (...args) => {
      expect(existsSync(builtMain), 'dist/ is missing: run `npm run build` first').toBe(true);
      const log = join(work, `modules-${Math.random().toString(36).slice(2)}.txt`);
      writeFileSync(log, '');
      const result = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, builtMain, ...args], {
        cwd: work,
        encoding: 'utf8',
        env: childEnv(log),
      });
      expect(result.status, result.stderr).toBe(0);
      const modules = readModuleLog(log);
      expect(matching(modules, /\/dist\/cli\/bundle\/main\.js$/)).toHaveLength(1);
      // zod and commander are inside the bundle; no dist module outside it is loaded.
      expect(matching(modules, /\/node_modules\/(zod|commander)\//)).toEqual([]);
      expect(matching(modules, /\/dist\/(?!cli\/(main|bundle\/))/)).toEqual([]);
    },
  );
});

describe('start-up loads only what the command needs', () => {
  it.each([['--help'], ['run', '--help'], ['--version']])('confidant %s', (...args) => {
    const { modules, code } = loadedModules(args);
    expect(code).toBe(0);
    // The hook saw the CLI (so an empty set cannot pass for a lean one).
    expect(matching(modules, /\/src\/cli\/main\.ts$/)).toHaveLength(1);
    expect(suiteCode(modules)).toEqual([]);
    expect(matching(modules, AI_SDK)).toEqual([]);
    expect(matching(modules, YAML)).toEqual([]);
    expect(matching(modules, MCP)).toEqual([]);
    expect(matching(modules, SQLITE)).toEqual([]);
    expect(matching(modules, LATER_LAYERS)).toEqual([]);
    expect(matching(modules, /\/src\/runner\/(?!package-info|shard)/)).toEqual([]);
    // Help is drawn from the flag tables, not the zod schemas; no spec is parsed.
    expect(matching(modules, ZOD)).toEqual([]);
    expect(matching(modules, PROVIDERS)).toEqual([]);
  });

  it.each([
    ['resume', '--help'],
    ['rescore', '--help'],
    ['help', 'run'],
  ])('confidant %s %s loads no zod', (...args) => {
    const { modules, code } = loadedModules(args);
    expect(code).toBe(0);
    expect(matching(modules, /\/src\/cli\/main\.ts$/)).toHaveLength(1);
    expect(matching(modules, ZOD)).toEqual([]);
    expect(matching(modules, PROVIDERS)).toEqual([]);
  });

  it('run <suite> --help loads that suite and no other', () => {
    const { modules, code } = loadedModules(['run', 'confaide', '--help']);
    expect(code).toBe(0);
    expect(matching(modules, /\/src\/suites\/confaide\/suite\.ts$/)).toHaveLength(1);
    expect(suiteCode(modules, 'confaide')).toEqual([]);
    expect(matching(modules, AI_SDK)).toEqual([]);
    expect(matching(modules, MCP)).toEqual([]);
  });

  it('a run loads its own suite only, and no yaml, MCP or report page code', () => {
    const { modules, code, stderr } = loadedModules([
      'run',
      'toy-leak',
      '-m',
      'mock:echo',
      '--out',
      join(work, 'runs'),
      '--no-preflight',
    ]);
    expect(code, stderr).toBe(0);
    expect(matching(modules, /\/src\/suites\/toy-leak\/suite\.ts$/)).toHaveLength(1);
    expect(suiteCode(modules, 'toy-leak')).toEqual([]);
    expect(matching(modules, YAML)).toEqual([]);
    expect(matching(modules, MCP)).toEqual([]);
    expect(matching(modules, /\/src\/(reports\/html|generation)\//)).toEqual([]);
  });

  it('a ConfAIde run on an OpenAI-compatible server loads no AI SDK, retrieval, embedder or other command code', async () => {
    const server = await startMockOpenAIServer({});
    try {
      const { modules, code, stderr } = await loadedModulesAsync([
        'run',
        'confaide',
        '--tier',
        '3',
        '--limit',
        '2',
        '--data-dir',
        fixtureDataDir,
        '-m',
        `openai-compatible:m@${server.baseURL}`,
        '--out',
        join(work, 'runs'),
      ]);
      expect(code, stderr).toBe(0);
      // The preflight probe ran (and listed the models) through the lean client.
      expect(server.modelListings).toBe(1);
      expect(matching(modules, /\/src\/suites\/confaide\/suite\.ts$/)).toHaveLength(1);
      expect(matching(modules, /\/src\/models\/lean-chat-model\.ts$/)).toHaveLength(1);
      expect(matching(modules, AI_SDK)).toEqual([]);
      expect(matching(modules, /\/src\/retrieval\/(transformers-embedder|vector|sqlite)/)).toEqual([]);
      expect(matching(modules, /\/node_modules\/(tar|sqlite-vec)\//)).toEqual([]);
      expect(matching(modules, /\/src\/runner\/(rescore|resume|run-sweep|merge-run-directories)\.ts$/)).toEqual([]);
      expect(matching(modules, /\/src\/datasets\/(pull-dataset|install-from-copy|extract-archive)\.ts$/)).toEqual([]);
      expect(matching(modules, MCP)).toEqual([]);
      // The default defense (vanilla) loads no other family's implementation (defense-catalog.ts).
      expect(matching(modules, /\/src\/defenses\/defense-catalog\.ts$/)).toHaveLength(1);
      expect(
        matching(
          modules,
          /\/src\/(defenses\/(registry|role-chain-defense|one-two-three-check|access-controlled-retrieval)|orchestration\/role-chain|retrieval\/filtered-search)\.ts$/,
        ),
      ).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
