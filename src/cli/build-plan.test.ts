import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { loadSuites } from '../suites/registry.js';
import { buildPlan, mergeRunFlags } from './build-plan.js';
import { readConfigFile } from './config-file.js';
import { addFlagOptions } from './flag-meta.js';
import { flagsFromCommandLine } from './flag-schema.js';
import { runFlagTable } from './run-flag-table.js';
import { type RunFlagValues, runFlagSchema } from './run-flags.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Parses `args` as `confidant run` would and returns the flags given on the command line. */
function commandLine(args: string[], name: 'run' | 'resume' | 'generate' = 'run'): RunFlagValues {
  const command = addFlagOptions({
    command: new Command(name).exitOverride().configureOutput({ writeErr: () => undefined }),
    flags: runFlagTable,
    name,
  });
  command.parse(args, { from: 'user' });
  return flagsFromCommandLine({ schema: runFlagSchema, name, command });
}

function configFile(content: unknown, suite = 'toy-leak'): RunFlagValues {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-config-'));
  dirs.push(dir);
  const path = join(dir, 'run.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return readConfigFile({ path, suite: findSuite(suite) }).flags;
}

describe('flags from the command line', () => {
  it('parses each flag into the config form and leaves defaults out', () => {
    expect(
      commandLine([
        '-m',
        'mock:echo',
        '--model',
        'judge=mock:refuse',
        '--epochs',
        '3',
        '--sample-ids',
        'a#e1, b#e1',
        '--shard',
        '2/4',
        '--no-cache',
        '--max-cost',
        '1.5',
        '--price',
        'openai-compatible:m=0.5/1.5',
        '--model-setting',
        'agent.temperature=0',
        '--set',
        'tier=3',
      ]),
    ).toEqual({
      model: ['mock:echo', 'judge=mock:refuse'],
      epochs: 3,
      sampleIds: ['a#e1', 'b#e1'],
      shard: { index: 2, count: 4 },
      cache: false,
      maxCost: 1.5,
      prices: { 'openai-compatible:m': { inputPerMillionUsd: 0.5, outputPerMillionUsd: 1.5 } },
      modelSetting: { 'agent.temperature': 0 },
      set: { tier: 3 },
    });
    expect(commandLine([])).toEqual({});
  });

  it('keeps the messages that name the flag', () => {
    expect(() => commandLine(['--epochs', '0'])).toThrow("--epochs expects a positive whole number, got '0'");
    expect(() => commandLine(['--shard', '5/4'])).toThrow("invalid shard '5/4'");
    expect(() => commandLine(['--set', 'tier'])).toThrow("--set expects key=value, got 'tier'");
    expect(() => commandLine(['--grid', 'agent-a='])).toThrow('--grid expects role=spec1,spec2');
  });

  it('rejects malformed prices with the expected form', () => {
    const form = '(for example --price openai:gpt-4o=2.5/10)';
    expect(() => commandLine(['--price', 'openai:gpt-4o'])).toThrow(
      `--price expects <model>=<input>/<output> in USD per million tokens, got 'openai:gpt-4o' ${form}`,
    );
    expect(() => commandLine(['--price', 'openai:gpt-4o=2.5'])).toThrow(
      `--price expects <input>/<output> in USD per million tokens for openai:gpt-4o, got '2.5' ${form}`,
    );
    expect(() => commandLine(['--price', 'openai:gpt-4o=-1/2'])).toThrow(PlanValidationError);
    expect(() => commandLine(['--price', '=1/2'])).toThrow('--price needs a model before');
    expect(() => commandLine(['--price', 'bad provider:x=1/2'])).toThrow(/--price: invalid model spec/);
  });

  it('takes a price whose spec has base URLs (and = in a query string)', () => {
    expect(commandLine(['--price', 'vllm:m@http://h:8000/v1?a=b=0.1/0.2']).prices).toEqual({
      'vllm:m@http://h:8000/v1?a=b': { inputPerMillionUsd: 0.1, outputPerMillionUsd: 0.2 },
    });
  });

  it('takes the fail-fast thresholds from the command line or a config file into the plan', () => {
    const suite = findSuite('toy-leak');
    const flags = commandLine(['--fail-fast', '0', '--max-error-rate', '0.5']);
    expect(flags).toEqual({ failFast: 0, maxErrorRate: 0.5 });
    expect(buildPlan({ suite, flags })).toMatchObject({ failFast: 0, maxErrorRate: 0.5 });
    expect(buildPlan({ suite, flags: configFile({ failFast: 3 }) })).toMatchObject({ failFast: 3, maxErrorRate: 0.2 });
    expect(() => buildPlan({ suite, flags: commandLine(['--max-error-rate', '1.5']) })).toThrow(
      /--max-error-rate: Too big: expected number to be <=1/,
    );
  });

  it('gives each command only its own flags', () => {
    // resume declares the plan-defining flags of run only to refuse them (see resume-overrides.ts).
    expect(commandLine(['--epochs', '2'], 'resume')).toEqual({});
    expect(() => commandLine(['--epochs', '2'], 'generate')).toThrow(/unknown option '--epochs'/);
    expect(commandLine(['--retry-errors', '--max-tokens', '9', '--price', 'm=1/1'], 'resume')).toEqual({
      retryErrors: true,
      maxTokens: 9,
      prices: { m: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
    });
    expect(() => commandLine(['--defense', 'ppe'], 'generate')).toThrow(/unknown option '--defense'/);
  });
});

describe('merging the config file and the command line', () => {
  it('merges model bindings by role: a role bound on the command line drops only its config bindings', () => {
    const config: RunFlagValues = {
      model: ['agent=mock:echo', 'judge=mock:refuse', 'judge=mock:fixed/No'],
      grid: ['agent-a=mock:echo', 'agent-a=mock:refuse'],
    };
    const merged = mergeRunFlags({ config, cli: { model: ['mock:fixed/hi', 'agent-a=reference:oracle'] } });
    expect(merged.model).toEqual([
      'judge=mock:refuse',
      'judge=mock:fixed/No',
      'mock:fixed/hi',
      'agent-a=reference:oracle',
    ]);
    expect(merged.grid).toBeUndefined();
    expect(mergeRunFlags({ config, cli: {} }).model).toEqual([...(config.model ?? []), ...(config.grid ?? [])]);
  });

  it('merges --set, --model-setting and --price key by key, replaces the rest', () => {
    const merged = mergeRunFlags({
      config: {
        set: { tier: '3', instruction: 'off' },
        modelSetting: { 'agent.temperature': 1, 'judge.seed': 4 },
        prices: { a: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
        defense: ['ppe', 'chain:G>V>R'],
        epochs: 4,
        cache: false,
      },
      cli: {
        set: { tier: '4' },
        modelSetting: { 'agent.temperature': 0 },
        prices: { b: { inputPerMillionUsd: 2, outputPerMillionUsd: 2 } },
        defense: ['aifc'],
      },
    });
    expect(merged).toEqual({
      set: { tier: '4', instruction: 'off' },
      modelSetting: { 'agent.temperature': 0, 'judge.seed': 4 },
      prices: {
        a: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 },
        b: { inputPerMillionUsd: 2, outputPerMillionUsd: 2 },
      },
      defense: ['aifc'],
      epochs: 4,
      cache: false,
    });
  });
});

describe('readConfigFile', () => {
  it('accepts suite options at the top level and under set', () => {
    const top = configFile({ model: 'mock:echo', tier: 3, set: { instruction: 'off' } }, 'confaide');
    expect(top).toEqual({ model: ['mock:echo'], set: { tier: 3, instruction: 'off' } });
    const plan = buildPlan({ suite: findSuite('confaide'), flags: mergeRunFlags({ config: top, cli: {} }) });
    expect(plan.suiteOptions).toEqual({ tier: 3, instruction: 'off' });
    expect(plan.models).toEqual([{ role: 'agent', spec: 'mock:echo' }]);
  });

  it('reads prices as in/out text or as price objects', () => {
    expect(
      configFile({
        prices: {
          'openai-compatible:m': '0.5/1.5',
          'vllm:big@http://h:1/v1': { inputPerMillionUsd: 2, outputPerMillionUsd: 3 },
        },
      }).prices,
    ).toEqual({
      'openai-compatible:m': { inputPerMillionUsd: 0.5, outputPerMillionUsd: 1.5 },
      'vllm:big@http://h:1/v1': { inputPerMillionUsd: 2, outputPerMillionUsd: 3 },
    });
  });

  it('lists every valid key when a key is unknown', () => {
    expect(() => configFile({ modle: 'mock:echo', dryRun: true }, 'confaide')).toThrow(
      /unknown keys 'modle', 'dryRun'; a config file takes the run flags \(model, grid, modelSetting, defense, set, fidelity, epochs, .*prices, dataDir, out, preset, failFast, maxErrorRate, failOnError\) and the options of suite confaide \(tier, instruction, questions, tier3Proxy, ratingPhrases, ratingRetries\), at the top level or under "set"$/,
    );
    expect(() => configFile({ tier: 3 })).toThrow(/options of suite toy-leak \(none\)/);
  });

  it('names the field and the file for bad values', () => {
    expect(() => configFile({ epochs: 'two' })).toThrow(/invalid --config .*run\.json: epochs: Invalid input/);
    expect(() => configFile({ prices: { m: '1' } })).toThrow(
      /prices: prices\.m expects <input>\/<output> in USD per million tokens for m, got '1'/,
    );
    expect(() => configFile({ shard: '0/2' })).toThrow(/shard: invalid shard '0\/2'/);
    expect(() => configFile({ prices: { m: { inputPerMillionUsd: 1 } } })).toThrow(
      'prices.m: expected "<input>/<output>" or { "inputPerMillionUsd": …, "outputPerMillionUsd": … }',
    );
    expect(() => configFile({ model: 3 })).toThrow('model: expected a string or a list of strings');
    expect(() => configFile('[1]')).toThrow('expected a JSON object of flags and suite options');
    expect(() => configFile('{')).toThrow(/cannot read --config/);
  });

  it('refuses a suite option given twice with different values', () => {
    expect(() => configFile({ tier: 3, set: { tier: 4 } }, 'confaide')).toThrow(
      '\'tier\' given both at the top level and under "set" with different values',
    );
    expect(configFile({ tier: 3, set: { tier: 3 } }, 'confaide').set).toEqual({ tier: 3 });
  });
});

describe('buildPlan', () => {
  it('lets suite flags win over --set and the config, and keeps plan defaults', () => {
    const plan = buildPlan({
      suite: findSuite('confaide'),
      flags: { set: { tier: '3', questions: 'control' }, model: ['mock:echo'] },
      suiteFlags: { tier: '4' },
    });
    expect(plan.suiteOptions).toEqual({ tier: '4', questions: 'control' });
    expect(plan).toMatchObject({ epochs: 1, seed: 0, concurrency: 4, maxConnections: 8, maxRetries: 5, cache: true });
    expect(plan.prices).toBeUndefined();
  });

  it('rejects an impossible plan as a user error', () => {
    expect(() => buildPlan({ suite: findSuite('toy-leak'), flags: { maxCost: 0 } })).toThrow(
      /invalid run settings: maxCostUsd/,
    );
  });
});

describe('--fidelity', () => {
  it('is one run-level flag: from the command line, from a config file (the command line wins), into the plan', () => {
    expect(commandLine(['--fidelity', 'upstream'])).toEqual({ fidelity: 'upstream' });
    expect(() => commandLine(['--fidelity', 'exact'])).toThrow(
      /--fidelity: Invalid option: expected one of "confidant"\|"upstream"/,
    );
    const config = configFile({ fidelity: 'upstream', set: { k: 'v' } });
    expect(config).toMatchObject({ fidelity: 'upstream' });
    const merged = mergeRunFlags({ config, cli: commandLine(['--fidelity', 'confidant']) });
    expect(merged.fidelity).toBe('confidant');
    expect(buildPlan({ suite: findSuite('toy-leak'), flags: config }).fidelity).toBe('upstream');
    expect(buildPlan({ suite: findSuite('toy-leak'), flags: {} }).fidelity).toBeUndefined();
    expect(() => configFile({ fidelity: 'paper' })).toThrow(/fidelity: Invalid option/);
  });

  it('is refused by resume: it defines what the run measures', () => {
    expect(() => commandLine(['--fidelity', 'upstream'], 'resume')).not.toThrow();
    expect(commandLine(['--fidelity', 'upstream'], 'resume')).toEqual({});
  });
});
