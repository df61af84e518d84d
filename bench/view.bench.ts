// Viewer benchmark: for synthetic toy-leak runs of 2,000 and 20,000 samples (each with a short
// transcript and a judge exchange), the time until `confidant view` shows the overview and the
// first page of samples in headless Chromium, and the server's resident memory (VmRSS) once that
// page is shown. The server runs as its own process so its RSS is its own. Ratios 20k/2k are the
// point: paging from samples.jsonl should keep memory nearly flat and the first page quick.
// Usage: npm run bench:view -- [--sizes 2000,20000]
// The last line of output is JSON with every number.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportHeader, reportRecord } from '../src/reports/__fixtures__/report-run.js';
import { buildSummary } from '../src/runner/build-summary.js';
import { toyLeakSuite } from '../src/suites/toy-leak/suite.js';
import { launchChromium } from '../test/browser/launch-chromium.js';

const arg = process.argv.indexOf('--sizes');
const sizes = (arg > 0 ? (process.argv[arg + 1] ?? '') : '2000,20000').split(',').map(Number);

function writeRun(dir: string, n: number): number {
  mkdirSync(dir, { recursive: true });
  const records = Array.from({ length: n }, (_, index) => {
    const leaked = index % 3 === 0;
    const id = `s${index}#e1`;
    const reply = leaked ? `Sure: the secret of person ${index} is ${'x'.repeat(40)}.` : 'I cannot share that.';
    return reportRecord({
      id,
      output: { answer: reply },
      scores: [{ scorer: 'toy-leak-canary@1', verdict: leaked ? 'fail' : 'pass', value: leaked ? 1 : 0 }],
      events: [
        {
          id: `${id}-1`,
          time: '2026-11-30T00:00:00.000Z',
          type: 'message-deliver',
          participantId: 'bob',
          to: ['assistant'],
          text: `Question ${index}?`,
        },
        {
          id: `${id}-2`,
          time: '2026-11-30T00:00:00.000Z',
          type: 'judge-call',
          judge: 'leak@1',
          prompt: `Judge this: ${reply}`,
          raw: leaked ? 'Answer: yes' : 'Answer: no',
          verdict: leaked ? 'fail' : 'pass',
          modelCallIds: [],
        },
      ],
    });
  });
  const header = reportHeader({ runId: `bench-${n}`, sampleIds: records.map((record) => record.id) });
  writeFileSync(join(dir, 'header.json'), JSON.stringify(header));
  writeFileSync(join(dir, 'samples.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  const started = performance.now();
  const summary = buildSummary({
    runId: header.runId,
    suite: toyLeakSuite,
    options: {},
    planned: header.sampleIds,
    records,
  });
  const summaryMs = performance.now() - started;
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  return summaryMs;
}

async function startServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'view', dir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`view exited with ${code}: ${out}`)));
  });
  return { child, url };
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const work = mkdtempSync(join(tmpdir(), 'confidant-bench-view-'));
const browser = await launchChromium();
const rows: Array<Record<string, number>> = [];
try {
  for (const n of sizes) {
    const dir = join(work, `run-${n}`);
    const summaryMs = writeRun(dir, n);
    const spawned = performance.now();
    const { child, url } = await startServer(dir);
    const listeningMs = performance.now() - spawned;
    const page = await browser.newPage();
    const t0 = performance.now();
    await page.goto(url);
    await page.getByRole('heading', { name: /bench-/ }).waitFor();
    const overviewMs = performance.now() - t0;
    const t1 = performance.now();
    await page.goto(`${url}#/samples`);
    await page.getByText(`of ${n} samples`).waitFor();
    const firstPageMs = performance.now() - t1;
    const t2 = performance.now();
    await page.locator('a.sample-link').first().click();
    await page.getByText('Transcript (2 events)').waitFor();
    const samplePageMs = performance.now() - t2;
    const row = {
      samples: n,
      summaryMs,
      listeningMs,
      overviewMs,
      firstPageMs,
      samplePageMs,
      serverRssMb: rssMb(child.pid ?? 0),
    };
    rows.push(row);
    console.log(
      `${n} samples: summary ${summaryMs.toFixed(0)} ms, server listening ${listeningMs.toFixed(0)} ms, overview ${overviewMs.toFixed(0)} ms, first page ${firstPageMs.toFixed(0)} ms, a sample ${samplePageMs.toFixed(0)} ms, server RSS ${row.serverRssMb.toFixed(0)} MB`,
    );
    await page.close();
    child.kill('SIGTERM');
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
const [small, large] = rows;
const ratios =
  small && large
    ? Object.fromEntries(Object.keys(small).map((key) => [key, (large[key] ?? 0) / (small[key] || 1)]))
    : {};
if (small && large) {
  console.log(
    `ratios ${large.samples}/${small.samples}: ${Object.entries(ratios)
      .map(([key, value]) => `${key} ×${value.toFixed(2)}`)
      .join(', ')}`,
  );
}
console.log(JSON.stringify({ rows, ratios }));
