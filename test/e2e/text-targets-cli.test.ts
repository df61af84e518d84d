import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatScoreTarget, type ScoreTarget } from '../../src/spec/score-target.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let work: string;
let current: string;
let old: string;

/**
 * A run directory as format-1 runs wrote it, before score targets were structured: every
 * target of `samples.jsonl` is text (PAC's old grammar, `agent:agent_a/channel:messages`, is
 * what `formatScoreTarget` prints), and the summary is gone, so `report` computes it again from
 * those records.
 */
function writeOldRun({ from, to }: { from: string; to: string }): void {
  cpSync(from, to, { recursive: true });
  const lines = readFileSync(join(to, 'samples.jsonl'), 'utf8').trimEnd().split('\n');
  const rewritten = lines.map((line) => {
    const record = JSON.parse(line) as { scores: Array<{ target?: ScoreTarget | string }> };
    for (const score of record.scores) {
      if (score.target !== undefined && typeof score.target !== 'string')
        score.target = formatScoreTarget(score.target);
    }
    return JSON.stringify(record);
  });
  expect(rewritten.join('\n')).toContain('"target":"agent:agent_a/channel:messages"');
  writeFileSync(join(to, 'samples.jsonl'), `${rewritten.join('\n')}\n`);
  rmSync(join(to, 'summary.json'));
}

const cli = (args: string[]) => runCliInProcess({ args, cwd: work });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-text-targets-'));
  const demo = await cli(['demo', '--out', 'demo-out']);
  expect(demo.code, demo.stderr).toBe(0);
  const naive = readdirSync(join(work, 'demo-out')).find((dir) =>
    readFileSync(join(work, 'demo-out', dir, 'header.json'), 'utf8').includes('reference:naive'),
  );
  current = join(work, 'demo-out', naive ?? '');
  old = join(work, 'old-run');
  writeOldRun({ from: current, to: old });
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a run directory with text score targets (format 1)', () => {
  it('reports the same metrics and grid as the run it was made from', async () => {
    const report = async (dir: string) => {
      const result = await cli(['report', dir, '--format', 'json']);
      expect(result.code, result.stderr).toBe(0);
      const json = JSON.parse(result.stdout) as {
        runs: Array<{ metrics: Record<string, unknown>; extraMarkdown: string }>;
      };
      return json.runs[0];
    };
    const [now, before] = [await report(current), await report(old)];
    expect(before?.metrics).toEqual(now?.metrics);
    // The suite's own Markdown (PAC's initiator × partner grid) comes from the breakdowns.
    expect(before?.extraMarkdown).toEqual(now?.extraMarkdown);
    expect(now?.extraMarkdown).toContain('reference:naive');
    expect(now?.metrics).toMatchObject({ ps: { value: 0 }, acc_privacy: { value: 0 } });
  });

  it('compares with the new run sample by sample: the same score keys, nothing flipped', async () => {
    const result = await cli(['compare', current, old, '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { comparisons: Array<{ flipped: unknown[]; pairedScorers?: unknown }> };
    expect(json.comparisons[0]?.flipped).toEqual([]);
  });
});
