import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'gen-atomic-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates missing folders, replaces the file and leaves no temporary file', async () => {
    const path = join(work, 'a', 'b', 'x.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(join(work, 'a', 'b'))).toEqual(['x.json']);
  });

  it('fails without leaving a temporary file when the target is a folder', async () => {
    await expect(writeFileAtomic(work, 'x')).rejects.toThrow();
    expect(
      (await readdir(join(work, '..'))).filter((name) => name.endsWith('.tmp') && name.startsWith('gen-atomic-')),
    ).toEqual([]);
  });
});
