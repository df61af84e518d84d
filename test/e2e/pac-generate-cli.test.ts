import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/run-cli-process.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-pac-gen-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<CliResult> => runCli({ args, env: { HOME: work }, cwd: work });

describe('confidant generate pac (CLI wiring)', () => {
  it('reports every rejected unit and exits 2 when a datagen model never gives a usable reply', async () => {
    const result = await cli([
      'generate',
      'pac',
      '--domain',
      'Banks',
      '--count',
      '1',
      '--policy-type',
      'range',
      '--max-attempts',
      '1',
      '--model',
      'datagen=mock:fixed/not json',
      '--out',
      join(work, 'out'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rejected range/Banks/policy_0 (scenario)');
    expect(result.stderr).toContain('generate pac wrote no scenario');
    expect(result.stdout).toBe('');
  });

  it('names what is missing or malformed in one line', async () => {
    const noOut = await cli(['generate', 'pac', '--domain', 'Banks', '--model', 'mock:echo']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr.trim()).toBe('confidant: generate pac needs --out <dir>: the folder to write (or resume)');
    const badType = await cli([
      'generate',
      'pac',
      '--domain',
      'Banks',
      '--policy-type',
      'sideways',
      '--model',
      'mock:echo',
      '--out',
      join(work, 'x'),
    ]);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toMatch(/--policy-type expects change, range or both/);
    const noModel = await cli(['generate', 'pac', '--domain', 'Banks', '--out', join(work, 'y')]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/generate pac needs a datagen model/);
  });
});
