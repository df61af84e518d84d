import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsErrorCode, makeDirectory, makeDirectorySync } from './make-directory.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-mkdir-'));
  dirs.push(dir);
  return dir;
}
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return fsErrorCode(error);
  }
  return 'no error';
};

describe.each([
  ['makeDirectory', (path: string) => makeDirectory(path)],
  ['makeDirectorySync', async (path: string) => makeDirectorySync(path)],
] as const)('%s', (_name, make) => {
  it('creates every missing folder and accepts one that exists', async () => {
    const root = temp();
    await make(join(root, 'a', 'b', 'c'));
    expect(statSync(join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    await make(join(root, 'a', 'b'));
    await make(root);
  });

  it('fails with ENOTDIR when a file is in the way', async () => {
    const root = temp();
    writeFileSync(join(root, 'file'), 'x');
    await expect(make(join(root, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(make(join(root, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(process.platform === 'linux')(
    'ends with ENOENT under /proc, where Node’s recursive mkdir loops',
    async () => {
      await expect(make('/proc/confidant-x/y')).rejects.toMatchObject({
        code: 'ENOENT',
        userError: true,
        message:
          'cannot create the folder /proc/confidant-x: the file system there takes no new folders; choose another path',
      });
      await expect(make('/proc/confidant-x')).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );
});

describe('fsErrorCode', () => {
  it('reads the code of a Node error, and nothing else', () => {
    expect(codeOf(() => statSync('/nonexistent/confidant'))).toBe('ENOENT');
    expect(fsErrorCode(new Error('x'))).toBeUndefined();
    expect(fsErrorCode('text')).toBeUndefined();
  });
});
