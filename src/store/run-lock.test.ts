import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLockedError } from '../spec/errors.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { acquireRunLock, processIsAlive, RUN_LOCK_FILE, readRunLock } from './run-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'confidant-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockPath = () => join(dir, RUN_LOCK_FILE);
const now = () => new Date('2026-12-01T10:00:00.000Z');

function writeLock(holder: { pid: number; host: string; command?: string; startedAt?: string }) {
  writeFileSync(
    lockPath(),
    JSON.stringify({ command: 'confidant run', startedAt: '2026-11-30T22:00:00.000Z', token: 'old', ...holder }),
  );
}

describe('acquireRunLock', () => {
  it('writes the holder, refuses a second writer naming it, and frees the directory on release', async () => {
    const { lock, tookOverFrom } = await acquireRunLock({ directory: dir, command: 'confidant run', host: 'h1', now });
    expect(tookOverFrom).toBeUndefined();
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: 'h1',
      command: 'confidant run',
      startedAt: '2026-12-01T10:00:00.000Z',
    });
    const second = acquireRunLock({ directory: dir, command: 'confidant resume', host: 'h1', pid: 1 });
    await expect(second).rejects.toThrow(RunLockedError);
    await expect(second).rejects.toThrow(
      `run directory ${dir} is being written by PID ${process.pid} on host h1 (confidant run, since 2026-12-01T10:00:00.000Z); wait for it to finish, or stop it (Ctrl-C, or kill ${process.pid}) and run the command again`,
    );
    await lock.release();
    expect(existsSync(lockPath())).toBe(false);
    const again = await acquireRunLock({ directory: dir, command: 'confidant resume', host: 'h1' });
    await again.lock.release();
  });

  it('takes over the lock of a dead process on the same host and reports whose it was', async () => {
    writeLock({ pid: 4_000_000, host: 'h1' });
    const { lock, tookOverFrom } = await acquireRunLock({
      directory: dir,
      command: 'confidant resume',
      host: 'h1',
      isAlive: () => false,
    });
    expect(tookOverFrom).toMatchObject({ pid: 4_000_000, host: 'h1', command: 'confidant run' });
    expect((await readRunLock(dir))?.command).toBe('confidant resume');
    lock.releaseSync();
    expect(existsSync(lockPath())).toBe(false);
  });

  it('never steals a lock from another host, and says how to remove it if that host is gone', async () => {
    writeLock({ pid: 12, host: 'gpu-node-7' });
    const attempt = acquireRunLock({ directory: dir, command: 'confidant resume', host: 'h1', isAlive: () => false });
    await expect(attempt).rejects.toThrow(
      `is being written by PID 12 on host gpu-node-7 (confidant run, since 2026-11-30T22:00:00.000Z); this host cannot tell whether that process still runs. Wait for it to finish; if host gpu-node-7 is down or the process is gone, delete ${lockPath()} and run the command again`,
    );
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).host).toBe('gpu-node-7');
  });

  it('refuses an unreadable lock file and names it', async () => {
    writeFileSync(lockPath(), '{torn');
    await expect(acquireRunLock({ directory: dir, command: 'confidant resume' })).rejects.toThrow(
      `its lock file ${lockPath()} is unreadable`,
    );
  });

  it('release leaves a lock that is no longer its own', async () => {
    const { lock } = await acquireRunLock({ directory: dir, command: 'confidant run' });
    writeLock({ pid: 99, host: 'other' });
    await lock.release();
    expect((await readRunLock(dir))?.host).toBe('other');
  });

  it('lets only one of many concurrent writers in', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) =>
        acquireRunLock({ directory: dir, command: `writer ${index}`, pid: 1000 + index, isAlive: () => true }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
  });

  it('lets one of two processes take over a stale lock at the same time', async () => {
    writeLock({ pid: 4_000_000, host: 'h1' });
    const alive = new Set<number>([1001, 1002]);
    const attempts = await Promise.allSettled(
      [1001, 1002].map((pid) =>
        acquireRunLock({ directory: dir, command: `writer ${pid}`, pid, host: 'h1', isAlive: (p) => alive.has(p) }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
  });

  it('is reachable from the directory store', async () => {
    const { lock } = await new DirectoryRunStore(dir).acquireLock({ command: 'confidant merge' });
    expect((await readRunLock(dir))?.command).toBe('confidant merge');
    await lock.release();
  });
});

describe('processIsAlive', () => {
  it('sees this process and not a PID that cannot exist', () => {
    expect(processIsAlive(process.pid)).toBe(true);
    expect(processIsAlive(2 ** 22 + 12345)).toBe(false);
  });
});
