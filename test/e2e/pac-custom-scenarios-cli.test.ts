import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

const EXAMPLE = new URL(
  '../../docs/suites/examples/pac/pacbench/scenarios/range/Community_Gardens/policy_0.json',
  import.meta.url,
).pathname;
const example = () => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { scenario: Record<string, unknown> };

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-pac-custom-cli-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliResult> {
  return runCli({
    args,
    env: { HOME: work, CONFIDANT_DATA_DIR: join(work, 'no-data'), CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

/** `confidant run pac --scenarios <dir>` with the deterministic judges and the oracle in every seat. */
const run = (scenarios: string, out: string) =>
  cli([
    'run',
    'pac',
    '--scenarios',
    scenarios,
    '--set',
    'taskMode=markers',
    '--set',
    'privacyMode=keyword-only',
    '--model',
    'reference:oracle',
    '--out',
    join(work, out),
  ]);

describe('confidant run pac --scenarios', () => {
  it('a folder of twenty files with one malformed lists every problem of it at once, exits 2 and runs nothing', async () => {
    const dir = join(work, 'twenty');
    mkdirSync(join(dir, 'rotas', 'april'), { recursive: true });
    for (let index = 0; index < 19; index++) {
      writeFileSync(join(dir, 'rotas', `garden rota ${index}.json`), JSON.stringify(example()));
    }
    const bad = example();
    const agentA = bad.scenario.agent_a as { memory: Array<{ requirements_index: unknown }> };
    agentA.memory[0]!.requirements_index = ['first'];
    bad.scenario.agent_c = { profile: { organization: 'X' } };
    writeFileSync(join(dir, 'rotas', 'april', 'broken.json'), JSON.stringify(bad));

    const result = await run(dir, 'out-twenty');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--scenarios ${dir}: 4 problems in 1 file; nothing was run:`);
    for (const line of [
      '  rotas/april/broken.json: scenario.agent_a.memory.0.requirements_index.0: Invalid input: expected number, received string',
      '  rotas/april/broken.json: scenario.agent_c.profile.expertise: required, expected string',
      "  rotas/april/broken.json: scenario.agent_c.context: needs 'context' (or 'memory')",
      "  rotas/april/broken.json: scenario.agent_c.privacy_policy: needs 'privacy_policy' (or 'privacy_constraint')",
    ]) {
      expect(result.stderr).toContain(line);
    }
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout.trim()).toBe('');
    expect(existsSync(join(work, 'out-twenty')) ? readdirSync(join(work, 'out-twenty')) : []).toEqual([]);
  });

  it('prints undetectable-policy warnings before the run and records them, the content hash and the folder in the header', async () => {
    const dir = join(work, 'warned');
    mkdirSync(dir);
    const undetectable = example();
    const agentB = undetectable.scenario.agent_b as { privacy_constraint: Array<{ violation_keywords: string[] }> };
    agentB.privacy_constraint[0]!.violation_keywords = ['VK-99'];
    writeFileSync(join(dir, 'my rota.json'), JSON.stringify(undetectable));

    const result = await run(dir, 'out-warned');
    expect(result.code, result.stderr).toBe(0);
    const warning =
      "my rota.json: scenario.agent_b.privacy_constraint.0.violation_keywords.0: keyword 'VK-99' is not a verbatim substring of the memories it references, so it can never be detected";
    expect(result.stderr).toContain(warning);
    const header = JSON.parse(readFileSync(join(lastLine(result.stdout), 'header.json'), 'utf8')) as {
      dataset: { hash: string; root?: string; files: Array<{ path: string }>; warnings?: string[] };
    };
    expect(header.dataset.warnings).toEqual([warning]);
    expect(header.dataset.root).toBe(dir);
    expect(header.dataset.files.map((file) => file.path)).toEqual(['my rota.json']);
    expect(header.dataset.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an empty scenario file exits 2 with a message naming it, not the data dir', async () => {
    const file = join(work, 'none.jsonl');
    writeFileSync(file, '\n');
    const result = await run(file, 'out-none');
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `confidant: --scenarios ${file}: ${file} contains no scenario (it is empty or holds only blank lines); write one scenario per line of a .jsonl file, or one per .json file`,
    );
    expect(result.stdout.trim()).toBe('');
  });
});
