// Whole-CLI benchmark: `confidant run confaide --tier 3 --set questions=free-response` (one model
// call per sample) against the loopback mock server (a child process, latency L), each run its own
// child process measured by /usr/bin/time (wall, user + system CPU, max RSS). For every
// concurrency C it runs N = 200 and N = 2,000 uncached, then both again fully cached, and reports
// the marginal numbers between them (start-up removed): calls per second, CPU ms per call. It also
// times `confidant --version` / `--help` and runs N = 20,000 once for its max RSS, plus once more
// under a 96 MB heap cap (`--max-old-space-size=96`) to check that the summary still gets written.
// Runs the built CLI (`dist/`): `npm run bench:cli` builds first.
// Usage: npm run bench:cli -- [--sizes 200,2000] [--concurrency 64,256] [--latency 100] [--big 20000] [--cli <main.js>]
// (--big 0 skips the large run). The last line of output is JSON with every number.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { confaideBenchArgs, startMockServerProcess, timeNodeProcess } from './bench-processes.js';

const args = process.argv.slice(2);
function list(name: string, fallback: string): number[] {
  const index = args.indexOf(`--${name}`);
  const raw = index >= 0 ? (args[index + 1] ?? '') : fallback;
  const values = raw.split(',').map(Number);
  if (values.some((value) => !Number.isInteger(value) || value < 0)) throw new Error(`bad --${name}: ${raw}`);
  return values;
}
const [small = 200, large = 2000] = list('sizes', '200,2000');
const concurrencies = list('concurrency', '64,256');
const [latencyMs = 100] = list('latency', '100');
const [big = 20000] = list('big', '20000');
const SCENARIOS = 200;

const root = fileURLToPath(new URL('..', import.meta.url));
const cliIndex = args.indexOf('--cli');
// `--cli <path>` measures another build (e.g. a copy of dist/ from before a change) back to back.
const cli = cliIndex >= 0 ? (args[cliIndex + 1] ?? '') : join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm run bench:cli does)`);
const dataDir = process.env.CONFIDANT_TEST_DATA_DIR ?? join(root, '..', 'shared', 'datasets');
if (!existsSync(join(dataDir, 'confaide', 'tier_3.txt'))) throw new Error(`no ConfAIde tier 3 data in ${dataDir}`);

/** Runs the CLI under /usr/bin/time; throws with its output on a non-zero exit. */
function measure({ cliArgs, env = {} }: { cliArgs: string[]; env?: Record<string, string> }) {
  return timeNodeProcess({ entry: cli, args: cliArgs, env });
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

const { child, port } = await startMockServerProcess({ latencyMs, maxRequests: 10_000_000 });
const work = mkdtempSync(join(tmpdir(), 'confidant-bench-cli-'));
try {
  const model = `openai-compatible:bench@http://127.0.0.1:${port}/v1`;
  const runArgs = ({ n, concurrency, out }: { n: number; concurrency: number; out: string }) =>
    confaideBenchArgs({ n, scenarios: SCENARIOS, concurrency, dataDir, out, model });
  const run = ({
    n,
    concurrency,
    cache,
    env,
  }: {
    n: number;
    concurrency: number;
    cache: string;
    env?: Record<string, string>;
  }) => {
    const out = join(work, `out-${n}-${concurrency}-${Math.random().toString(36).slice(2)}`);
    const measured = measure({
      cliArgs: [...runArgs({ n, concurrency, out }), '--cache-dir', cache],
      ...(env ? { env } : {}),
    });
    const [runDir] = readdirSync(out);
    const summary = JSON.parse(readFileSync(join(out, runDir!, 'summary.json'), 'utf8')) as {
      counts: { planned: number; success: number };
    };
    if (summary.counts.success !== summary.counts.planned || summary.counts.planned !== n) {
      throw new Error(`run of ${n} samples: ${JSON.stringify(summary.counts)}`);
    }
    rmSync(out, { recursive: true, force: true });
    return measured;
  };

  const version = measure({ cliArgs: ['--version'] });
  const help = measure({ cliArgs: ['--help'] });
  console.log(`--version: ${version.cpuS.toFixed(3)} s CPU; --help: ${help.cpuS.toFixed(3)} s CPU`);

  const rows = [];
  for (const concurrency of concurrencies) {
    const caches = {
      small: join(work, `cache-${small}-${concurrency}`),
      large: join(work, `cache-${large}-${concurrency}`),
    };
    const a = run({ n: small, concurrency, cache: caches.small });
    const b = run({ n: large, concurrency, cache: caches.large });
    const ac = run({ n: small, concurrency, cache: caches.small });
    const bc = run({ n: large, concurrency, cache: caches.large });
    const calls = large - small;
    const row = {
      concurrency,
      callsPerS: round(calls / (b.wallS - a.wallS), 1),
      cpuMsPerCall: round(((b.cpuS - a.cpuS) * 1000) / calls),
      cachedCpuMsPerCall: round(((bc.cpuS - ac.cpuS) * 1000) / calls),
      startupCpuS: round(a.cpuS - (small * (b.cpuS - a.cpuS)) / calls),
      maxRssMb: { [small]: round(a.maxRssMb, 1), [large]: round(b.maxRssMb, 1) },
      wallS: { [small]: a.wallS, [large]: b.wallS, cached: { [small]: ac.wallS, [large]: bc.wallS } },
      cpuS: {
        [small]: round(a.cpuS),
        [large]: round(b.cpuS),
        cached: { [small]: round(ac.cpuS), [large]: round(bc.cpuS) },
      },
    };
    console.log(
      `C=${concurrency}: ${row.callsPerS} marginal calls/s (ideal ${(concurrency * 1000) / latencyMs}), ` +
        `${row.cpuMsPerCall} ms CPU per call uncached, ${row.cachedCpuMsPerCall} cached, ` +
        `start-up ≈ ${row.startupCpuS} s CPU, max RSS ${row.maxRssMb[small]} / ${row.maxRssMb[large]} MB`,
    );
    rows.push(row);
  }

  let bigRun: Record<string, number> | undefined;
  if (big > 0) {
    const concurrency = concurrencies.at(-1) ?? 256;
    const measured = run({ n: big, concurrency, cache: join(work, 'cache-big') });
    const capped = run({
      n: big,
      concurrency,
      cache: join(work, 'cache-big-capped'),
      env: { NODE_OPTIONS: '--max-old-space-size=96' },
    });
    bigRun = {
      n: big,
      concurrency,
      maxRssMb: round(measured.maxRssMb, 1),
      wallS: measured.wallS,
      cpuS: round(measured.cpuS),
      cappedMaxRssMb: round(capped.maxRssMb, 1),
    };
    console.log(
      `N=${big}: max RSS ${bigRun.maxRssMb} MB, ${bigRun.wallS} s wall, ${bigRun.cpuS} s CPU; under a 96 MB heap cap it wrote summary.json (max RSS ${bigRun.cappedMaxRssMb} MB)`,
    );
  }
  console.log(
    JSON.stringify({
      latencyMs,
      sizes: [small, large],
      versionCpuS: round(version.cpuS),
      helpCpuS: round(help.cpuS),
      runs: rows,
      ...(bigRun === undefined ? {} : { big: bigRun }),
    }),
  );
} finally {
  child.send('close');
  setTimeout(() => child.kill(), 5_000).unref();
  rmSync(work, { recursive: true, force: true });
}
