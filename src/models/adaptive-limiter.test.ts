import { describe, expect, it } from 'vitest';
import { ProviderError } from '../spec/errors.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AdaptiveLimiter', () => {
  it('never runs more than maxConnections tasks at once, and runs queued tasks in order', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 2 });
    const gates = [deferred<number>(), deferred<number>(), deferred<number>(), deferred<number>()];
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      limiter.run(() => {
        started.push(index);
        return gate.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.running).toBe(2);
    expect(limiter.queued).toBe(2);
    gates[1]!.resolve(1);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve(0);
    gates[2]!.resolve(2);
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[3]!.resolve(3);
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(limiter.running).toBe(0);
  });

  it('runs a waiting retry before every waiting new task, retries in their own order', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 1 });
    const gate = deferred<string>();
    const started: string[] = [];
    const task = (name: string) => () => {
      started.push(name);
      return name === 'first' ? gate.promise : Promise.resolve(name);
    };
    const results = [
      limiter.run(task('first')),
      limiter.run(task('new-1')),
      limiter.run(task('new-2')),
      limiter.runRetry(task('retry-1')),
      limiter.runRetry(task('retry-2')),
    ];
    await tick();
    expect(limiter.queued).toBe(4);
    gate.resolve('first');
    await Promise.all(results);
    expect(started).toEqual(['first', 'retry-1', 'retry-2', 'new-1', 'new-2']);
  });

  it('multiplies the limit by 0.8 on each 429 down to 1, and regains 1 per quiet 15 s', async () => {
    let now = 0;
    const limiter = new AdaptiveLimiter({ maxConnections: 8, now: () => now });
    const rateLimited = () =>
      limiter.run(() => Promise.reject(new ProviderError('slow down', { kind: 'rate-limit', status: 429 })));
    await expect(rateLimited()).rejects.toThrow('slow down');
    expect(limiter.limit).toBe(6); // 6.4
    await expect(rateLimited()).rejects.toThrow();
    expect(limiter.limit).toBe(5); // 5.12
    for (let index = 0; index < 20; index++) await rateLimited().catch(() => undefined);
    expect(limiter.limit).toBe(1);
    now += 14_999;
    expect(limiter.limit).toBe(1);
    now += 1;
    expect(limiter.limit).toBe(2);
    now += 45_000;
    expect(limiter.limit).toBe(5);
    now += 10 * 15_000;
    expect(limiter.limit).toBe(8);
  });

  it('does not shrink on other errors', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 4 });
    await expect(
      limiter.run(() => Promise.reject(new ProviderError('down', { kind: 'transient', status: 503 }))),
    ).rejects.toThrow('down');
    expect(limiter.limit).toBe(4);
  });

  it('rejects a queued task when its signal aborts, and frees no slot it never took', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 1 });
    const gate = deferred<string>();
    const first = limiter.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(async () => {
      ran = true;
      return 'second';
    }, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    expect(limiter.queued).toBe(0);
    gate.resolve('first');
    expect(await first).toBe('first');
    expect(ran).toBe(false);
    expect(await limiter.run(async () => 'third')).toBe('third');
    expect(limiter.running).toBe(0);
  });

  it('rejects a bad maximum', () => {
    expect(() => new AdaptiveLimiter({ maxConnections: 0 })).toThrow(RangeError);
  });
});
