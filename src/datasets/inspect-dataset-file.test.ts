import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectDatasetFile } from './inspect-dataset-file.js';

describe('inspectDatasetFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-inspect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a non-empty regular file, also through a symlink', () => {
    writeFileSync(join(dir, 'data.txt'), 'abc');
    symlinkSync(join(dir, 'data.txt'), join(dir, 'link.txt'));
    expect(inspectDatasetFile(join(dir, 'data.txt'))).toEqual({ ok: true, bytes: 3 });
    expect(inspectDatasetFile(join(dir, 'link.txt'))).toEqual({ ok: true, bytes: 3 });
  });

  it('names each way a partial copy goes wrong', () => {
    writeFileSync(join(dir, 'empty.txt'), '');
    mkdirSync(join(dir, 'folder.txt'));
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'dangling.txt'));
    const kinds = ['absent.txt', 'empty.txt', 'folder.txt', 'dangling.txt'].map((name) => {
      const state = inspectDatasetFile(join(dir, name));
      return state.ok ? 'ok' : `${state.kind}: ${state.detail}`;
    });
    expect(kinds).toEqual([
      'missing: is missing',
      'empty: is empty',
      'directory: is a directory, not a file',
      'dangling-symlink: is a symlink to nothing',
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('reports a file it may not read (skipped as root, who reads anything)', () => {
    writeFileSync(join(dir, 'secret.txt'), 'x');
    chmodSync(join(dir, 'secret.txt'), 0o000);
    const state = inspectDatasetFile(join(dir, 'secret.txt'));
    expect(state.ok ? 'ok' : state.kind).toBe('unreadable');
  });
});
