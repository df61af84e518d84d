import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.js';
import { textResult } from './testing/mock-chat-model.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ResponseCache', () => {
  it('stores and reads results across reopenings, in WAL mode', () => {
    const directory = tempDir();
    const cache = ResponseCache.open({ directory });
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', textResult('stored', { inputTokens: 1, outputTokens: 2 }));
    cache.close();
    const reopened = ResponseCache.open({ directory });
    expect(reopened.get('k')).toEqual(textResult('stored', { inputTokens: 1, outputTokens: 2 }));
    expect(reopened.size()).toBe(1);
    expect(reopened.path).toBe(join(directory, 'responses.sqlite'));
    reopened.close();
  });

  it('treats entries older than the TTL as misses', () => {
    let now = 1_000;
    const cache = ResponseCache.open({ directory: tempDir(), ttlMs: 500, now: () => now });
    cache.set('k', textResult('x'));
    now += 500;
    expect(cache.get('k')?.text).toBe('x');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    cache.close();
  });
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ResponseCache batched writes', () => {
  it('commits the writes of one turn of the event loop together on the next, answering them from memory until then', async () => {
    const directory = tempDir();
    const cache = ResponseCache.open({ directory });
    const peer = new Database(join(directory, 'responses.sqlite'), { readonly: true });
    const committed = () => peer.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number };
    for (let index = 0; index < 50; index += 1) cache.set(`k${index}`, textResult(`r${index}`));
    expect(cache.get('k7')?.text).toBe('r7');
    expect(committed().n).toBe(0);
    await nextTurn();
    expect(committed().n).toBe(50);
    cache.set('late', textResult('late'));
    cache.close();
    expect(committed().n).toBe(51);
    peer.close();
  });

  it('applies the TTL to writes not yet committed', () => {
    let now = 1_000;
    const cache = ResponseCache.open({ directory: tempDir(), ttlMs: 500, now: () => now });
    cache.set('k', textResult('x'));
    now += 501;
    expect(cache.get('k')).toBeUndefined();
    cache.close();
  });

  it("shares one read transaction per turn: a peer's writes are seen from the next turn on, and never block", async () => {
    const directory = tempDir();
    const cache = ResponseCache.open({ directory });
    cache.set('mine', textResult('mine'));
    cache.flush();
    const peer = new Database(join(directory, 'responses.sqlite'));
    peer.pragma('busy_timeout = 0');
    const peerWrite = (key: string) =>
      peer
        .prepare('INSERT OR REPLACE INTO responses (key, created_at, result) VALUES (?, ?, ?)')
        .run(key, Date.now(), JSON.stringify(textResult(key)));
    expect(cache.get('theirs')).toBeUndefined();
    // The open read transaction neither blocks the peer's write nor its checkpoint.
    peerWrite('theirs');
    expect(peer.pragma('wal_checkpoint(PASSIVE)', { simple: true })).toBe(0);
    expect(cache.get('mine')?.text).toBe('mine');
    // A write of this turn commits although the peer wrote after this turn's reads began.
    cache.set('late', textResult('late'));
    cache.flush();
    await nextTurn();
    expect(cache.get('theirs')?.text).toBe('theirs');
    peerWrite('next');
    cache.set('later', textResult('later'));
    await nextTurn();
    expect(peer.prepare('SELECT COUNT(*) AS n FROM responses').pluck().get()).toBe(5);
    expect(cache.get('next')?.text).toBe('next');
    cache.close();
    peer.close();
  });

  it('keeps a batch the database refused, still answers from it, and reports it at close', async () => {
    const directory = tempDir();
    const cache = ResponseCache.open({ directory });
    const peer = new Database(join(directory, 'responses.sqlite'));
    peer.exec('DROP TABLE responses');
    cache.set('k', textResult('kept'));
    await nextTurn();
    expect(cache.get('k')?.text).toBe('kept');
    expect(() => cache.flush()).toThrow(/no such table/);
    expect(() => cache.close()).toThrow(/no such table/);
    peer.close();
  });

  it('survives a kill -9 mid-batch: the cache stays readable and holds every committed batch whole', async () => {
    const directory = tempDir();
    const cacheModule = fileURLToPath(new URL('./response-cache.ts', import.meta.url));
    // The child stores batches of 300 results, one batch per turn, saying which ones are committed.
    const script = `
      const { ResponseCache } = await import(${JSON.stringify(cacheModule)});
      const cache = ResponseCache.open({ directory: ${JSON.stringify(directory)} });
      const text = 'x'.repeat(4000);
      for (let batch = 0; batch < 100000; batch += 1) {
        for (let index = 0; index < 300; index += 1) {
          cache.set(batch + ':' + index, { text, toolCalls: [], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 }, warnings: [] });
        }
        await new Promise((resolve) => setImmediate(resolve));
        process.stdout.write('committed ' + batch + '\\n');
      }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let reported = -1;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const batches = [...chunk.toString().matchAll(/committed (\d+)/g)].map((match) => Number(match[1]));
        reported = Math.max(reported, ...batches);
        // Killed while the next batches are being written and committed.
        if (reported >= 3) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => (reported >= 3 ? resolve() : reject(new Error(`child exited early: ${stderr}`))));
    });
    await exited;
    const db = new Database(join(directory, 'responses.sqlite'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('SELECT key FROM responses').all() as Array<{ key: string }>;
    db.close();
    const perBatch = new Map<number, number>();
    for (const { key } of rows) {
      const batch = Number(key.split(':')[0]);
      perBatch.set(batch, (perBatch.get(batch) ?? 0) + 1);
    }
    const batches = [...perBatch.keys()].sort((a, b) => a - b);
    // Every batch the child saw committed is there, each batch whole, with no gap.
    expect(batches.length).toBeGreaterThan(reported);
    expect(batches).toEqual(Array.from({ length: batches.length }, (_, index) => index));
    expect([...perBatch.values()].every((count) => count === 300)).toBe(true);
    const reopened = ResponseCache.open({ directory });
    expect(reopened.get('0:0')?.text).toHaveLength(4000);
    reopened.close();
  });
});
