import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeObjectSchema } from '../../src/spec/describe-object-schema.js';
import { loadSuites } from '../../src/suites/registry.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine } from '../support/run-cli-process.js';

const suites = await loadSuites();

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-discover-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) => runCliInProcess({ args, cwd: work, env: { CONFIDANT_CACHE_DIR: join(work, 'cache') } });

describe('every suite option is described in its schema', () => {
  it.each(suites.map((suite) => suite.id))('%s', (id) => {
    const suite = suites.find((candidate) => candidate.id === id)!;
    for (const option of describeObjectSchema(suite.options)) {
      expect(option.description?.trim(), `${id}.${option.key} needs a .describe()`).toBeTruthy();
    }
    for (const flag of suite.flags ?? []) {
      expect(
        describeObjectSchema(suite.options).map((option) => option.key),
        `${id} ${flag.flag}`,
      ).toContain(flag.key);
    }
  });
});

describe('confidant list', () => {
  it('options <suite>: every key of the schema with its flag, type, values, default and meaning', async () => {
    for (const suite of suites) {
      const result = await cli(['list', 'options', suite.id]);
      expect(result.code, result.stderr).toBe(0);
      for (const option of describeObjectSchema(suite.options)) {
        expect(result.stdout).toContain(option.description ?? option.key);
        expect(result.stdout).toMatch(new RegExp(`^  ${option.key}\\b`, 'm'));
      }
    }
    const confaide = await cli(['list', 'options', 'confaide']);
    expect(confaide.stdout).toMatch(/^ {2}tier \(--tier\) +string, one of 1, 3, 4, 2a, 2b; required$/m);
    expect(confaide.stdout).toMatch(/^ {2}instruction \(--instruction\) +string, one of on, off; default on$/m);
    const pac = await cli(['list', 'options', 'pac']);
    expect(pac.stdout).toMatch(/^ {2}gevalSamples +integer 1–20; default 1$/m);
  });

  it('suites --verbose lists the options of every suite; the short form only names flags and presets', async () => {
    const verbose = await cli(['list', 'suites', '--verbose']);
    expect(verbose.code).toBe(0);
    for (const suite of suites) expect(verbose.stdout).toContain(`${suite.id}: ${suite.description}`);
    expect(verbose.stdout).toContain('judgeProtocol');
    expect(verbose.stdout).toContain('offline');
    const short = await cli(['list', 'suites']);
    expect(short.stdout).toContain(
      'Flags: --split, --domain, --scenarios, --variant, --tools, --errors. Presets: offline, mock-judges.',
    );
    expect(short.stdout).not.toContain('judgeProtocol');
  });

  it('presets shows what each preset sets; metrics <suite> prints every definition', async () => {
    const presets = await cli(['list', 'presets']);
    expect(presets.stdout).toContain(
      '= --set split=starter --set taskMode=markers --set privacyMode=keyword-only --model agent=reference:oracle',
    );
    expect(presets.stdout).toContain('Presets of privacybench');
    const metrics = await cli(['list', 'metrics', 'privacylens']);
    expect(metrics.code).toBe(0);
    expect(metrics.stdout).toContain('Metrics of privacylens (docs/metrics.md#privacylens):');
    expect(metrics.stdout).toMatch(
      /^ {2}adjusted_leak_rate +Adj\. LR: percent \(stored 0 to 1, shown ×100\); lower is better$/m,
    );
    expect(metrics.stdout).toContain('formula: leaking samples with helpfulness ≥ 2 / samples with helpfulness ≥ 2');
  });

  it('an unknown suite or listing is a user error', async () => {
    const suite = await cli(['list', 'options', 'nope']);
    expect(suite.code).toBe(2);
    expect(suite.stderr).toContain("unknown suite 'nope'");
    const what = await cli(['list', 'recipes']);
    expect(what.code).toBe(2);
    expect(what.stderr).toContain("cannot list 'recipes'");
  });
});

describe('confidant run <suite> --help', () => {
  it('shows that suite’s meaning of a shared flag and hides the other suites’ flags', async () => {
    // Commander wraps descriptions at 80 columns: compare with whitespace folded.
    const folded = (text: string) => text.replace(/\s+/g, ' ');
    const pac = await cli(['run', 'pac', '--help']);
    expect(pac.code).toBe(0);
    expect(folded(pac.stdout)).toContain(
      '--split <value> change, range, all (both), starter (ours), nparty (our N-party starters) or features (ours: scheduling check, shared-file appenders) (same as --set split=…)',
    );
    expect(pac.stdout).not.toContain('--tier');
    expect(pac.stdout).toContain('Options of suite pac');
    expect(pac.stdout).toContain('Presets of pac (--preset <id>):');
    const lens = await cli(['run', 'privacylens', '--help']);
    expect(folded(lens.stdout)).toContain(
      "--split <value> PrivAct's split of the main set: all, train (394) or test (99)",
    );
    expect(lens.stdout).not.toContain('--variant');
  });

  it('without a suite, says where the per-suite meanings are', async () => {
    const help = await cli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'what --split means differs per suite: confidant run <suite> --help',
    );
    expect(help.stdout).toContain('confidant list options <suite>');
  });
});

describe('confidant run --preset', () => {
  it('offline runs the reference agents with the deterministic judges; --model swaps the agent', async () => {
    const oracle = await cli(['run', 'pac', '--preset', 'offline', '--out', 'runs']);
    expect(oracle.code, oracle.stderr).toBe(0);
    const naive = await cli(['run', 'pac', '--preset', 'offline', '--model', 'reference:naive', '--out', 'runs']);
    expect(naive.code, naive.stderr).toBe(0);
    const metric = (stdout: string, id: string) =>
      (
        JSON.parse(readFileSync(join(lastLine(stdout), 'summary.json'), 'utf8')) as {
          metrics: Record<string, { value: number | null }>;
        }
      ).metrics[id]?.value;
    expect(metric(oracle.stdout, 'acc_joint')).toBe(1);
    expect(metric(naive.stdout, 'acc_privacy')).toBe(0);
    const header = JSON.parse(readFileSync(join(lastLine(oracle.stdout), 'header.json'), 'utf8')) as {
      plan: { suiteOptions: Record<string, unknown> };
    };
    expect(header.plan.suiteOptions).toEqual({ split: 'starter', taskMode: 'markers', privacyMode: 'keyword-only' });

    const report = await cli(['report', lastLine(oracle.stdout)]);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('## Metric definitions');
    expect(report.stdout).toContain(
      '- **Acc_joint** (`acc_joint`, higher is better): The share of runs both task-complete and fully compliant',
    );
    expect(report.stdout).toContain('([definition](docs/metrics.md#pac-acc_joint))');
  });

  it('an unknown preset is a user error naming the suite’s presets', async () => {
    const result = await cli(['run', 'pac', '--preset', 'fast']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("suite pac has no preset 'fast': use one of offline, mock-judges");
    const none = await cli(['run', 'toy-leak', '--preset', 'offline']);
    expect(none.stderr).toContain("suite toy-leak has no preset 'offline': it has none");
  });
});
