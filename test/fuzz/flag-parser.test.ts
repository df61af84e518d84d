import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDataDir } from '../support/test-data.js';
import {
  expectCliOkOrUserError,
  fuzzParameters,
  fuzzTimeout,
  fuzzWorkspace,
  nastyString,
  ONE_DRY_RUN_TIMEOUT_MS,
} from './fuzz-inputs.js';

/**
 * The command line, fuzzed: known flags with odd values, unknown flags, stray arguments, for the
 * commands that need no network and start no server. `run` always carries `--dry-run` first, so
 * nothing is called whatever follows. Every command line exits 0 or 2 with a message.
 */

const VALUE = fc.oneof(
  fc.constantFrom('0', '-1', '1', '2', '1e9', '1e999', 'NaN', '0.5', '1/2', '3/2', '0/0', '', ' ', 'x', '1,2', 'true'),
  fc.constantFrom('mock:echo', 'judge=mock:echo', 'acme:x', 'agent.temperature=2', 'tier=9', 'k=v', 'a=b=c', '=x'),
  fc.constantFrom('/proc/x', '/nonexistent/file', '.', '..', '-', '--', 'runs'),
  nastyString,
);

const RUN_FLAGS = [
  '--model',
  '--grid',
  '--model-setting',
  '--defense',
  '--set',
  '--fidelity',
  '--epochs',
  '--limit',
  '--sample-ids',
  '--seed',
  '--shard',
  '--concurrency',
  '--max-connections',
  '--max-retries',
  '--request-timeout',
  '--max-retry-after',
  '--cache-dir',
  '--max-cost',
  '--max-tokens',
  '--price',
  '--preset',
  '--config',
  '--fail-fast',
  '--max-error-rate',
  '--tier',
  '--questions',
  '--instruction',
  '--split',
  '--domain',
  '--subset',
  '--community',
  '--strategy',
  '--branching',
];
const SWITCHES = [
  '--no-cache',
  '--fail-on-error',
  '--no-preflight',
  '--help',
  '-h',
  '--version',
  '--unknown-flag',
  '-x',
];

/** One token group: a flag with a value, a switch, or a stray word. */
const token = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...RUN_FLAGS), VALUE).map(([flag, value]) => [flag, value]) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...RUN_FLAGS), VALUE).map(([flag, value]) => [`${flag}=${value}`]) },
  { weight: 1, arbitrary: fc.constantFrom(...SWITCHES).map((flag) => [flag]) },
  { weight: 1, arbitrary: fc.constantFrom(...RUN_FLAGS).map((flag) => [flag]) },
  { weight: 1, arbitrary: VALUE.map((value) => [value]) },
);

const SUITES = ['toy-leak', 'confaide', 'pac', 'privacybench', 'privacylens', 'privact-tree', 'nope', ''];

const commandLine = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...SUITES), fc.array(token, { maxLength: 6 }))
      .map(([suite, tokens]) => ['run', suite, '--dry-run', '--model', 'mock:echo', ...tokens.flat()]),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('report', 'compare', 'merge', 'resume', 'rescore', 'list', 'export preferences', 'data check'),
        fc.array(
          fc.oneof(
            VALUE.map((value) => [value]),
            token,
          ),
          { maxLength: 5 },
        ),
      )
      .map(([command, tokens]) => [...command.split(' '), ...tokens.flat()]),
  },
  { weight: 1, arbitrary: fc.array(VALUE, { maxLength: 4 }) },
);

const workspace = fuzzWorkspace('flags');
beforeAll(workspace.open);
afterAll(workspace.close);

describe('fuzz: the command line', () => {
  it(
    'a plain dry run exits 0, so the fuzz starts from a working command',
    async () => {
      const result = await workspace.cli(['run', 'toy-leak', '--dry-run', '--model', 'mock:echo']);
      expect(result.code, result.stderr).toBe(0);
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'any command line of these commands exits 0 or 2 with a message, never an internal error',
    async () => {
      await fc.assert(
        fc.asyncProperty(commandLine, async (args) => {
          // Paths a command might write resolve inside the workspace; data comes from the fixtures.
          const full =
            args[0] === 'run' ? [...args, '--out', join(workspace.dir(), 'runs'), '--data-dir', fixtureDataDir] : args;
          expectCliOkOrUserError(await workspace.cli(full), JSON.stringify(full));
        }),
        fuzzParameters(120),
      );
    },
    fuzzTimeout(240_000),
  );
});
