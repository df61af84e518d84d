import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lastUserText,
  type MockHandler,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine, startCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';
import { chaos, chaosRandom, expectNoDuplicates, killWhen, scanSamples } from './kill-points.js';

/**
 * kill -9 at seeded random points of `run` and of `resume` (a kill after k finished samples, k
 * and a few milliseconds of jitter drawn from the seed), then a resume to the end: no sample that
 * was finished is lost or recorded twice, no line is torn but a kill's last, the run ends as an
 * uninterrupted one would (every planned sample once, FR-E exactly 1 for a model that echoes),
 * and while a resume writes the run a second writer is refused.
 */

let work: string;
let server: MockOpenAIServer;
let holding = false;
/** Requests the mock holds while `holding` (the resume's slots are full at `--concurrency`). */
let waiting = 0;
let release: () => void = () => {};
let held = new Promise<void>((resolve) => {
  release = resolve;
});

const random = chaosRandom(chaos.seed);

/** Echoes the prompt minus its answer cue (so FR-E reads the scenario back: 1), after a seeded short delay. */
const echo: MockHandler = async (body) => {
  if (holding) {
    waiting += 1;
    await held;
    waiting -= 1;
  }
  return {
    type: 'text',
    text: lastUserText(body).replace(/\n?Answer:\s*"?\s*$/, ''),
    latencyMs: random.int(2, 25),
  };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-chaos-run-'));
  server = await startMockOpenAIServer({ handler: (body, index) => echo(body, index), models: ['echo'] });
});

afterAll(async () => {
  release();
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ HOME: work, CONFIDANT_DATA_DIR: fixtureDataDir, CONFIDANT_CACHE_DIR: join(work, 'cache') });
const epochs = chaos.soak ? 6 : 2;
/** Tier 3 of the fixtures has 12 scenarios. */
const planned = 12 * epochs;
/** kill -9 points after the first (which is in `run`); each one is in a `resume`. */
const resumeKills = chaos.soak ? 12 : 2;

function summaryOf(runDir: string) {
  return JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as {
    counts: Record<string, number>;
    metrics: Record<string, { value: number | null; n: number; errors: number }>;
  };
}

describe(`kill -9 during run and resume (seed ${chaos.seed})`, () => {
  it(
    'loses no finished sample, duplicates none, tears no line but the last, and refuses a second writer',
    async () => {
      const out = join(work, 'runs');
      const args = [
        'run',
        'confaide',
        '--tier',
        '3',
        '--set',
        'questions=free-response',
        '--epochs',
        String(epochs),
        '--concurrency',
        '3',
        '--model',
        `openai-compatible:echo@${server.baseURL}`,
        '--out',
        out,
      ];
      const runDirOf = () => {
        const entries = existsSync(out) ? readdirSync(out) : [];
        return entries.length === 1 ? join(out, entries[0]!) : undefined;
      };
      const firstKill = random.int(1, Math.floor(planned / 3));
      const killedRun = await killWhen({
        started: startCli({ args, env: env(), cwd: work }),
        ready: () => {
          const dir = runDirOf();
          return dir !== undefined && scanSamples(dir).ids.length >= firstKill;
        },
        jitterMs: random.int(0, 15),
      });
      expect(killedRun.killed, killedRun.result.stderr).toBe(true);
      const runDir = runDirOf()!;
      let before = scanSamples(runDir).ids;
      expect(before.length).toBeGreaterThanOrEqual(firstKill);
      expectNoDuplicates(before);

      for (let round = 0; round < resumeKills; round += 1) {
        const resume = startCli({ args: ['resume', runDir], env: env(), cwd: work });
        if (round === 0) {
          // While this resume holds the run, a second writer is turned away and calls no model.
          holding = true;
          const lock = join(runDir, 'run.lock');
          await waitFor(() => existsSync(lock) && JSON.parse(readFileSync(lock, 'utf8')).pid === resume.child.pid);
          // Its three slots are taken, so any further request would be the second writer's.
          await waitFor(() => waiting === 3);
          const calls = server.count;
          const second = await runCliInProcess({ args: ['resume', runDir], env: env(), cwd: work });
          expect(second.code).toBe(2);
          expect(second.stderr).toContain(`is being written by PID ${resume.child.pid}`);
          expect(second.stderr).not.toMatch(/\n\s+at /);
          expect(server.count).toBe(calls);
          holding = false;
          release();
          held = new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        const remaining = planned - before.length;
        const killAfter = before.length + random.int(1, Math.max(1, Math.floor(remaining / 2)));
        const killed = await killWhen({
          started: resume,
          ready: () => scanSamples(runDir).ids.length >= killAfter,
          jitterMs: random.int(0, 15),
        });
        const now = scanSamples(runDir).ids;
        expect(now.slice(0, before.length)).toEqual(before);
        expectNoDuplicates(now);
        before = now;
        if (!killed.killed) {
          // The resume finished before its kill point: nothing is left to interrupt.
          expect(killed.result.code, killed.result.stderr).toBe(0);
          break;
        }
      }

      const finished = await runCliInProcess({ args: ['resume', runDir], env: env(), cwd: work });
      expect(finished.code, finished.stderr).toBe(0);
      expect(lastLine(finished.stdout)).toBe(runDir);
      const final = scanSamples(runDir);
      expect(final.tornTail).toBe(false);
      expect(final.ids.slice(0, before.length)).toEqual(before);
      expectNoDuplicates(final.ids);
      const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as { sampleIds: string[] };
      expect(header.sampleIds).toHaveLength(planned);
      expect([...final.ids].sort()).toEqual([...header.sampleIds].sort());
      const summary = summaryOf(runDir);
      expect(summary.counts).toMatchObject({ planned, success: planned, error: 0, missing: 0 });
      // FR-E is over scenarios, each averaged over its epochs.
      expect(summary.metrics.fr_e).toMatchObject({ value: 1, n: 12, errors: 0 });
      expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    },
    chaos.soak ? 1_800_000 : 240_000,
  );
});

/** Resolves once `condition` holds (polled every 10 ms). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
