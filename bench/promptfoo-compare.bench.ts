// Side-by-side benchmark against promptfoo, installed OUTSIDE this repository (it is never a
// dependency: 1.4 GB): the same workload as `npm run bench:cli` (ConfAIde tier 3 free-response,
// one model call per sample, the first 200 scenarios, N = 200 and 2,000 by epochs / `--repeat`)
// against the same loopback mock server (a child process, latency L, echoing the prompt), at the
// same concurrency C (confidant `--concurrency C --max-connections C`, promptfoo `-j C`). Each run
// is its own child process measured by /usr/bin/time (wall, user + system CPU, max RSS); the two
// tools alternate, pair after pair, and the marginal numbers between N = 200 and N = 2,000 (start-up
// removed) are reported per pair and as medians, with the ratios confidant / promptfoo.
//
// promptfoo's config is written at run time from our own prompts: the samples of the plan the CLI
// runs, rendered by the ConfAIde prompt builder from the data dir, one promptfoo test per scenario
// (prompt `{{prompt}}`, provider `openai:chat` at the mock's base URL, temperature 1 and top_p 1
// as confidant sends). promptfoo runs with `--no-cache`, telemetry, update checks, sharing and
// remote generation off, and a fresh PROMPTFOO_CONFIG_DIR per run (its results database starts
// empty); it still writes that database, as confidant writes its records. confidant runs
// uncached with a fresh `--cache-dir` per run (it still writes its response cache, which
// promptfoo does not: that cost is counted against confidant). Every run is checked afterwards:
// confidant's summary counts N successes; promptfoo's database holds N successful results whose
// output is exactly the prompt sent (the mock echoes it), so both tools sent the same texts.
//
// Usage: npm run bench:promptfoo -- --promptfoo /tmp/pf/node_modules/promptfoo/dist/src/entrypoint.js
//   [--sizes 200,2000] [--concurrency 256] [--latency 100] [--pairs 3] [--cli <confidant main.js>]
//   [--data-dir <dir holding confaide/>] [--promptfoo-env KEY=VALUE ...] (repeatable: more environment for
//   promptfoo, e.g. PROMPTFOO_DISABLE_DEBUG_LOG=true to measure it without its default debug log file)
//   [--promptfoo-no-write] (promptfoo keeps no results database: `--no-write`, results checked from
//   its `-o results.jsonl` instead)
// It runs the built CLI (`dist/`): `npm run build` first. Install promptfoo first, outside the repo:
//   mkdir -p /tmp/pf && cd /tmp/pf && npm init -y && npm i promptfoo@0.121.20
// The last line of output is JSON with every number.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { prepareRun } from '../src/runner/prepare-run.js';
import { runPlanSchema } from '../src/spec/run-plan.js';
import type { ConfaideOptions, ConfaideScenario } from '../src/suites/confaide/index.js';
import { buildTaskPrompt } from '../src/suites/confaide/prompts.js';
import { confaideBenchArgs, type Measured, startMockServerProcess, timeNodeProcess } from './bench-processes.js';

const args = process.argv.slice(2);
function value(name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}
function list(name: string, fallback: string): number[] {
  const raw = value(name) ?? fallback;
  const values = raw.split(',').map(Number);
  if (values.some((entry) => !Number.isInteger(entry) || entry <= 0)) throw new Error(`bad --${name}: ${raw}`);
  return values;
}

const promptfooArg = value('promptfoo');
if (promptfooArg === undefined || promptfooArg === '') {
  console.error(
    "bench:promptfoo needs --promptfoo <path to promptfoo's CLI entry>, e.g. --promptfoo /tmp/pf/node_modules/promptfoo/dist/src/entrypoint.js.\n" +
      'Install promptfoo outside this repository first (it is never a dependency of confidant):\n' +
      '  mkdir -p /tmp/pf && cd /tmp/pf && npm init -y && npm i promptfoo@0.121.20',
  );
  process.exit(2);
}
const promptfoo = resolve(promptfooArg);
if (!existsSync(promptfoo)) {
  console.error(
    `--promptfoo ${promptfooArg}: ${promptfoo} does not exist (the entry is dist/src/entrypoint.js in the package)`,
  );
  process.exit(2);
}

const [small = 200, large = 2000] = list('sizes', '200,2000');
const [concurrency = 256] = list('concurrency', '256');
const [latencyMs = 100] = list('latency', '100');
const [pairs = 3] = list('pairs', '3');
const promptfooNoWrite = args.includes('--promptfoo-no-write');
const promptfooEnv: Record<string, string> = {};
args.forEach((arg, index) => {
  if (arg !== '--promptfoo-env') return;
  const assignment = args[index + 1] ?? '';
  const equals = assignment.indexOf('=');
  if (equals <= 0) throw new Error(`--promptfoo-env needs KEY=VALUE, got ${assignment}`);
  promptfooEnv[assignment.slice(0, equals)] = assignment.slice(equals + 1);
});
const SCENARIOS = 200;
for (const n of [small, large]) {
  if (n % SCENARIOS !== 0 && n > SCENARIOS) throw new Error(`--sizes: ${n} is not a multiple of ${SCENARIOS}`);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = resolve(value('cli') ?? join(root, 'dist', 'cli', 'main.js'));
if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first, or give --cli <main.js>`);
const dataDir = resolve(
  value('data-dir') ?? process.env.CONFIDANT_TEST_DATA_DIR ?? join(root, '..', 'shared', 'datasets'),
);
if (!existsSync(join(dataDir, 'confaide', 'tier_3.txt'))) {
  throw new Error(`no ConfAIde tier 3 data in ${dataDir}: give --data-dir <dir holding confaide/>`);
}

/** The user message confidant sends for each of the first `limit` tier 3 free-response samples. */
async function confaidePrompts(limit: number): Promise<string[]> {
  const plan = runPlanSchema.parse({
    suite: 'confaide',
    suiteOptions: { tier: '3', questions: 'free-response' },
    models: [{ role: 'agent', spec: 'mock:echo' }],
    limit,
  });
  const prepared = await prepareRun({ plan, dataDir });
  const options = prepared.options as ConfaideOptions;
  const scenarios = new Map((prepared.scenarios as ConfaideScenario[]).map((scenario) => [scenario.id, scenario]));
  return prepared.samples.map((sample) => {
    const scenario = scenarios.get(sample.scenarioId);
    if (scenario === undefined) throw new Error(`sample ${sample.id} has no scenario`);
    const messages = buildTaskPrompt({
      scenario,
      question: 'free-response',
      instruction: options.instruction,
    }).render();
    const [message] = messages;
    if (messages.length !== 1 || message?.role !== 'user' || typeof message.content !== 'string') {
      throw new Error(`sample ${sample.id}: expected one user message with text content`);
    }
    return message.content;
  });
}

const round = (number: number, digits = 3) => Number(number.toFixed(digits));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const prompts = await confaidePrompts(SCENARIOS);
const { child, port } = await startMockServerProcess({ latencyMs, maxRequests: 10_000_000 });
const work = mkdtempSync(join(tmpdir(), 'confidant-bench-promptfoo-'));
try {
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const configPath = join(work, 'promptfooconfig.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      description: `ConfAIde tier 3 free-response, ${prompts.length} scenarios (written by confidant's bench:promptfoo)`,
      prompts: [{ id: 'confaide-tier3-free-response', raw: '{{prompt}}' }],
      providers: [
        { id: 'openai:chat:bench', config: { apiBaseUrl: baseURL, apiKey: 'bench', temperature: 1, top_p: 1 } },
      ],
      tests: prompts.map((prompt) => ({ vars: { prompt } })),
    }),
  );

  let runIndex = 0;
  const runConfidant = (n: number): Measured => {
    const dir = join(work, `confidant-${runIndex++}`);
    mkdirSync(dir);
    const out = join(dir, 'runs');
    const { stdout: _stdout, ...measured } = timeNodeProcess({
      entry: cli,
      args: [
        ...confaideBenchArgs({
          n,
          scenarios: SCENARIOS,
          concurrency,
          dataDir,
          out,
          model: `openai-compatible:bench@${baseURL}`,
        }),
        '--cache-dir',
        join(dir, 'cache'),
      ],
      cwd: dir,
    });
    const [runDir] = readdirSync(out);
    const summary = JSON.parse(readFileSync(join(out, runDir!, 'summary.json'), 'utf8')) as {
      counts: { planned: number; success: number };
    };
    if (summary.counts.success !== n || summary.counts.planned !== n) {
      throw new Error(`confidant run of ${n} samples: ${JSON.stringify(summary.counts)}`);
    }
    rmSync(dir, { recursive: true, force: true });
    return measured;
  };

  const runPromptfoo = (n: number): Measured => {
    const dir = join(work, `promptfoo-${runIndex++}`);
    const configDir = join(dir, 'promptfoo-home');
    mkdirSync(configDir, { recursive: true });
    const { stdout: _stdout, ...measured } = timeNodeProcess({
      entry: promptfoo,
      args: [
        'eval',
        '-c',
        configPath,
        '--no-cache',
        '-j',
        String(concurrency),
        '--repeat',
        String(Math.max(1, n / SCENARIOS)),
        ...(n < SCENARIOS ? ['--filter-first-n', String(n)] : []),
        '--no-table',
        '--no-progress-bar',
        '--no-share',
        ...(promptfooNoWrite ? ['--no-write', '-o', join(dir, 'results.jsonl')] : []),
      ],
      env: {
        HOME: dir,
        PROMPTFOO_CONFIG_DIR: configDir,
        PROMPTFOO_DISABLE_TELEMETRY: '1',
        PROMPTFOO_DISABLE_UPDATE: '1',
        PROMPTFOO_DISABLE_SHARING: '1',
        PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
        PROMPTFOO_CACHE_ENABLED: 'false',
        ...promptfooEnv,
      },
      cwd: dir,
    });
    checkPromptfooResults({
      rows: promptfooNoWrite
        ? readFileSync(join(dir, 'results.jsonl'), 'utf8')
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as PromptfooResult)
        : readPromptfooDatabase(join(configDir, 'promptfoo.db')),
      n,
    });
    rmSync(dir, { recursive: true, force: true });
    return measured;
  };

  type PromptfooResult = { success?: unknown; vars?: { prompt?: unknown }; response?: { output?: unknown } | null };
  /** The results promptfoo wrote to its database, in the shape of its `-o` output. */
  const readPromptfooDatabase = (database: string): PromptfooResult[] => {
    const db = new Database(database, { readonly: true });
    try {
      const rows = db.prepare('SELECT success, response, test_case FROM eval_results').all() as Array<{
        success: number;
        response: string | null;
        test_case: string;
      }>;
      return rows.map((row) => ({
        success: row.success === 1,
        vars: (JSON.parse(row.test_case) as { vars?: { prompt?: unknown } }).vars ?? {},
        response: row.response === null ? null : (JSON.parse(row.response) as { output?: unknown }),
      }));
    } finally {
      db.close();
    }
  };

  /** N results, every one a success whose output is the prompt sent (the mock echoes it). */
  const checkPromptfooResults = ({ rows, n }: { rows: PromptfooResult[]; n: number }) => {
    const known = new Set(prompts);
    const good = rows.filter((row) => {
      const sent = row.vars?.prompt;
      return row.success === true && typeof sent === 'string' && known.has(sent) && row.response?.output === sent;
    });
    if (rows.length !== n || good.length !== n) {
      throw new Error(`promptfoo run of ${n} samples: ${rows.length} results, ${good.length} echoed successes`);
    }
  };

  type Marginal = { callsPerS: number; cpuMsPerCall: number; startupCpuS: number; maxRssMb: number[] };
  const marginal = (a: Measured, b: Measured): Marginal => {
    const calls = large - small;
    const cpuPerCall = (b.cpuS - a.cpuS) / calls;
    return {
      callsPerS: round(calls / (b.wallS - a.wallS), 1),
      cpuMsPerCall: round(cpuPerCall * 1000),
      startupCpuS: round(a.cpuS - small * cpuPerCall),
      maxRssMb: [round(a.maxRssMb, 1), round(b.maxRssMb, 1)],
    };
  };

  const rows: Array<{ pair: number; confidant: Marginal; promptfoo: Marginal; raw: Record<string, Measured> }> = [];
  for (let pair = 1; pair <= pairs; pair++) {
    // Alternate which tool goes first, so a drift in machine load does not favour one of them.
    const order = pair % 2 === 1 ? (['promptfoo', 'confidant'] as const) : (['confidant', 'promptfoo'] as const);
    const raw: Record<string, Measured> = {};
    for (const n of [small, large]) {
      for (const tool of order) raw[`${tool}-${n}`] = tool === 'confidant' ? runConfidant(n) : runPromptfoo(n);
    }
    const row = {
      pair,
      confidant: marginal(raw[`confidant-${small}`]!, raw[`confidant-${large}`]!),
      promptfoo: marginal(raw[`promptfoo-${small}`]!, raw[`promptfoo-${large}`]!),
      raw,
    };
    console.log(
      `pair ${pair}: confidant ${row.confidant.callsPerS} calls/s, ${row.confidant.cpuMsPerCall} ms CPU/call, ` +
        `start-up ${row.confidant.startupCpuS} s, max RSS ${row.confidant.maxRssMb.join(' / ')} MB; ` +
        `promptfoo ${row.promptfoo.callsPerS} calls/s, ${row.promptfoo.cpuMsPerCall} ms CPU/call, ` +
        `start-up ${row.promptfoo.startupCpuS} s, max RSS ${row.promptfoo.maxRssMb.join(' / ')} MB`,
    );
    rows.push(row);
  }

  const pick = (tool: 'confidant' | 'promptfoo', metric: (m: Marginal) => number) =>
    round(median(rows.map((row) => metric(row[tool]))));
  const ratio = (metric: (m: Marginal) => number) =>
    round(median(rows.map((row) => metric(row.confidant) / metric(row.promptfoo))));
  const medians = {
    confidant: {
      callsPerS: pick('confidant', (m) => m.callsPerS),
      cpuMsPerCall: pick('confidant', (m) => m.cpuMsPerCall),
      startupCpuS: pick('confidant', (m) => m.startupCpuS),
      maxRssMb: [pick('confidant', (m) => m.maxRssMb[0]!), pick('confidant', (m) => m.maxRssMb[1]!)],
    },
    promptfoo: {
      callsPerS: pick('promptfoo', (m) => m.callsPerS),
      cpuMsPerCall: pick('promptfoo', (m) => m.cpuMsPerCall),
      startupCpuS: pick('promptfoo', (m) => m.startupCpuS),
      maxRssMb: [pick('promptfoo', (m) => m.maxRssMb[0]!), pick('promptfoo', (m) => m.maxRssMb[1]!)],
    },
    ratios: {
      callsPerS: ratio((m) => m.callsPerS),
      cpuMsPerCall: ratio((m) => m.cpuMsPerCall),
      maxRssMbLarge: ratio((m) => m.maxRssMb[1]!),
    },
  };
  console.log(
    `median of ${pairs} pairs (C=${concurrency}, L=${latencyMs} ms, N=${small}/${large}): ` +
      `confidant ${medians.confidant.callsPerS} vs promptfoo ${medians.promptfoo.callsPerS} marginal calls/s ` +
      `(ratio ${medians.ratios.callsPerS}x), CPU per call ${medians.confidant.cpuMsPerCall} vs ${medians.promptfoo.cpuMsPerCall} ms ` +
      `(ratio ${medians.ratios.cpuMsPerCall}x), max RSS at N=${large} ${medians.confidant.maxRssMb[1]} vs ${medians.promptfoo.maxRssMb[1]} MB`,
  );
  console.log(
    JSON.stringify({
      concurrency,
      latencyMs,
      sizes: [small, large],
      promptfooEnv,
      promptfooNoWrite,
      pairs: rows,
      medians,
    }),
  );
} finally {
  child.send('close');
  setTimeout(() => child.kill(), 5_000).unref();
  rmSync(work, { recursive: true, force: true });
}
