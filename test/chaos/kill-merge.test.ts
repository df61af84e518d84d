import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_INCOMPLETE_MARKER } from '../../src/store/index.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine, startCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';
import { chaos, chaosRandom, expectNoDuplicates, killWhen, scanSamples } from './kill-points.js';

/**
 * kill -9 at seeded random points of `merge` (a few milliseconds to a second after it created its
 * directory, where it writes the header, the records and the summary). Whatever the point, the
 * directory it leaves is either a whole merged run (every shard record once, no torn line) or is
 * recognised as a half-written merge that every reader refuses with exit 2 and the command that
 * cleans it; a merge redone from the shards is whole, and it resumes with nothing left to run.
 */

let work: string;
const random = chaosRandom(chaos.seed + 1);
const epochs = chaos.soak ? 20 : 10;
/** Tier 3 of the fixtures has 12 scenarios. */
const planned = 12 * epochs;
const rounds = chaos.soak ? 12 : 3;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-chaos-merge-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ HOME: work, CONFIDANT_DATA_DIR: fixtureDataDir, CONFIDANT_CACHE_DIR: join(work, 'cache') });
const inProcess = (args: string[]) => runCliInProcess({ args, env: env(), cwd: work });

function summaryCounts(runDir: string): Record<string, number> {
  return (JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as { counts: Record<string, number> }).counts;
}

describe(`kill -9 during merge (seed ${chaos.seed})`, () => {
  it(
    'leaves a whole merged run or a half-written one every reader refuses, and a redone merge is whole and resumable',
    async () => {
      const shards: string[] = [];
      for (const shard of ['1/2', '2/2']) {
        const result = await inProcess([
          'run',
          'confaide',
          '--tier',
          '3',
          '--set',
          'questions=free-response',
          '--epochs',
          String(epochs),
          '--model',
          'mock:echo',
          '--shard',
          shard,
          '--out',
          join(work, 'shards'),
        ]);
        expect(result.code, result.stderr).toBe(0);
        shards.push(lastLine(result.stdout));
      }
      const shardIds = shards.flatMap((dir) => scanSamples(dir).ids);
      expect(new Set(shardIds).size).toBe(planned);

      const expectWhole = (dir: string) => {
        const scan = scanSamples(dir);
        expect(scan.tornTail).toBe(false);
        expectNoDuplicates(scan.ids);
        expect([...scan.ids].sort()).toEqual([...shardIds].sort());
        expect(summaryCounts(dir)).toMatchObject({ planned, success: planned, error: 0, missing: 0 });
        expect(existsSync(join(dir, MERGE_INCOMPLETE_MARKER))).toBe(false);
      };

      const whole: string[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const out = join(work, `merged-${round}`);
        const { result } = await killWhen({
          started: startCli({ args: ['merge', ...shards, '--out', out], env: env(), cwd: work }),
          ready: () => existsSync(out) && readdirSync(out).length > 0,
          jitterMs: random.int(0, 1200),
        });
        const dirs = existsSync(out) ? readdirSync(out).map((name) => join(out, name)) : [];
        expect(dirs.length).toBeLessThanOrEqual(1);
        const dir = dirs[0];
        if (result.signal !== 'SIGKILL') {
          expect(result.code, result.stderr).toBe(0);
          expect(lastLine(result.stdout)).toBe(dir);
        }
        if (dir === undefined) continue;
        if (existsSync(join(dir, 'summary.json')) && !existsSync(join(dir, MERGE_INCOMPLETE_MARKER))) {
          expectWhole(dir);
          whole.push(dir);
          continue;
        }
        // Killed before the summary: every reader refuses the directory and says how to clean it.
        for (const args of [
          ['report', dir],
          ['resume', dir],
          ['merge', dir, shards[1]!, '--out', join(work, 'never')],
        ]) {
          const refused = await inProcess(args);
          expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
          expect(refused.stderr).not.toMatch(/\n\s+at /);
          if (existsSync(join(dir, MERGE_INCOMPLETE_MARKER))) {
            expect(refused.stderr).toContain(`is a half-written merge`);
            expect(refused.stderr).toContain(`rm -r ${dir}`);
          }
        }
        expect(existsSync(join(work, 'never'))).toBe(false);
      }

      // The merge redone from the shards is whole, and a merged run resumes with nothing to run.
      const redone = await inProcess(['merge', ...shards, '--out', join(work, 'redone')]);
      expect(redone.code, redone.stderr).toBe(0);
      const merged = lastLine(redone.stdout);
      expectWhole(merged);
      for (const dir of [merged, ...whole]) {
        const resumed = await inProcess(['resume', dir]);
        expect(resumed.code, resumed.stderr).toBe(0);
        expectWhole(dir);
      }
    },
    chaos.soak ? 1_800_000 : 240_000,
  );
});
