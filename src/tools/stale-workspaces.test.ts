import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleWorkspaces, workspaceDirPrefix } from './stale-workspaces.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('removeStaleWorkspaces', () => {
  it('removes only workspace directories whose owning process is gone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'confidant-stale-'));
    roots.push(root);
    const names = [
      `${workspaceDirPrefix(111)}aaaa`, // dead
      `${workspaceDirPrefix(222)}bbbb`, // alive
      `${workspaceDirPrefix()}cccc`, // this process
      'confidant-workspace-old', // no pid: unknown owner, kept
      'something-else-333-x',
    ];
    for (const name of names) mkdirSync(join(root, name, 'agent_a'), { recursive: true });
    const removed = await removeStaleWorkspaces({ tempRoot: root, isAlive: (pid) => pid === 222 });
    expect(removed).toEqual([join(root, `${workspaceDirPrefix(111)}aaaa`)]);
    expect(readdirSync(root).sort()).toEqual(names.slice(1).sort());
  });

  it('does nothing for a temp root that does not exist', async () => {
    const missing = join(tmpdir(), 'confidant-stale-none-here');
    expect(await removeStaleWorkspaces({ tempRoot: missing, isAlive: () => false })).toEqual([]);
    expect(existsSync(missing)).toBe(false);
  });
});
