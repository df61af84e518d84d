import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunDirectory } from './create-run-directory.js';
import { createRunId } from './create-run-id.js';

describe('createRunId', () => {
  it('formats <yyyymmdd-hhmmss>-<suite>-<6 hex> in UTC', () => {
    const now = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(createRunId({ now, suite: 'toy-leak', planHash: 'ABCDEF0123' })).toBe('20250102-030405-toy-leak-abcdef');
  });

  it('makes the suite id safe for a directory name and rejects a non-hex hash', () => {
    const now = new Date(Date.UTC(2025, 11, 31, 23, 59, 59));
    expect(createRunId({ now, suite: 'a/b c', planHash: '0123456' })).toBe('20251231-235959-a-b-c-012345');
    expect(() => createRunId({ now, suite: 'x', planHash: 'xyz' })).toThrow(TypeError);
  });
});

describe('createRunDirectory', () => {
  it('creates the directory, and adds a suffix instead of reusing an existing one', async () => {
    const root = await mkdtemp(join(tmpdir(), 'confidant-rundir-'));
    try {
      const outDir = join(root, 'runs', 'nested');
      const first = await createRunDirectory({ outDir, runId: 'r1' });
      expect(first).toEqual({ runId: 'r1', directory: join(outDir, 'r1') });
      await writeFile(join(first.directory, 'header.json'), 'keep me');
      const second = await createRunDirectory({ outDir, runId: 'r1' });
      const third = await createRunDirectory({ outDir, runId: 'r1' });
      expect([second.runId, third.runId]).toEqual(['r1-2', 'r1-3']);
      expect(await readdir(first.directory)).toEqual(['header.json']);
      await mkdir(join(outDir, 'r9'));
      expect((await createRunDirectory({ outDir, runId: 'r9' })).directory).toBe(join(outDir, 'r9-2'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
