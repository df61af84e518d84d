import { onAbort } from './on-abort.js';
import { isProviderError } from './provider-error.js';

/** Options of an `AdaptiveLimiter`. */
export type AdaptiveLimiterOptions = {
  /** Starting and maximum concurrency (`--max-connections`, default 8). */
  maxConnections?: number;
  /** Quiet time after which the limit grows by one (default 15 s). */
  increaseAfterMs?: number;
  /** Factor applied on each 429 (default 0.8); the limit never drops below 1. */
  decreaseFactor?: number;
  /** Injectable clock in milliseconds. */
  now?: () => number;
};

type Waiter = { resolve: () => void; reject: (reason: unknown) => void; cancelled: boolean };

/**
 * A concurrency limiter for one endpoint that adapts to rate limiting: it starts at
 * `maxConnections`, multiplies its limit by 0.8 on each 429 (floor 1) and adds 1 for every
 * 15 s without a 429, up to the maximum. It uses no timers: the clock is read when a slot is
 * taken or given back, which keeps the cost per call to a few comparisons.
 */
export class AdaptiveLimiter {
  readonly maxConnections: number;
  private readonly increaseAfterMs: number;
  private readonly decreaseFactor: number;
  private readonly now: () => number;
  private rawLimit: number;
  private lastAdjustAt: number;
  private active = 0;
  private waiters: Waiter[] = [];
  private head = 0;
  /** Retries waiting for a slot; served before `waiters`. */
  private retries: Waiter[] = [];

  constructor(options: AdaptiveLimiterOptions = {}) {
    const max = options.maxConnections ?? 8;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxConnections must be an integer ≥ 1, got ${max}`);
    this.maxConnections = max;
    this.increaseAfterMs = options.increaseAfterMs ?? 15_000;
    this.decreaseFactor = options.decreaseFactor ?? 0.8;
    this.now = options.now ?? Date.now;
    this.rawLimit = max;
    this.lastAdjustAt = this.now();
  }

  /** The current number of requests allowed at once (an integer ≥ 1). */
  get limit(): number {
    this.recover();
    return Math.max(1, Math.floor(this.rawLimit));
  }

  /** Requests currently running. */
  get running(): number {
    return this.active;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    let count = 0;
    for (let index = this.head; index < this.waiters.length; index++) if (!this.waiters[index]?.cancelled) count++;
    for (const waiter of this.retries) if (!waiter.cancelled) count++;
    return count;
  }

  /** Shrinks the limit after a 429 from this endpoint. */
  recordRateLimit(): void {
    this.rawLimit = Math.max(1, this.rawLimit * this.decreaseFactor);
    this.lastAdjustAt = this.now();
  }

  /**
   * Runs `task` once a slot is free. A task that fails with a rate-limit `ProviderError`
   * shrinks the limit. Aborting `signal` while waiting rejects with the signal's reason.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.runQueued(task, signal, 'new');
  }

  /**
   * Runs the retry of a call that this endpoint already turned away: like `run`, but it waits
   * ahead of every new task (retries among themselves keep their order), so the call is not
   * starved by work that has not started yet.
   */
  runRetry<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.runQueued(task, signal, 'retry');
  }

  private async runQueued<T>(
    task: () => Promise<T>,
    signal: AbortSignal | undefined,
    queue: 'new' | 'retry',
  ): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await this.wait(signal, queue);
    try {
      return await task();
    } catch (error) {
      if (isProviderError(error) && error.kind === 'rate-limit') this.recordRateLimit();
      throw error;
    } finally {
      this.active--;
      this.drain();
    }
  }

  private recover(): void {
    if (this.rawLimit >= this.maxConnections) return;
    const elapsed = this.now() - this.lastAdjustAt;
    if (elapsed < this.increaseAfterMs) return;
    const steps = Math.floor(elapsed / this.increaseAfterMs);
    this.rawLimit = Math.min(this.maxConnections, this.rawLimit + steps);
    this.lastAdjustAt += steps * this.increaseAfterMs;
  }

  private wait(signal: AbortSignal | undefined, queue: 'new' | 'retry'): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, cancelled: false };
      if (signal) {
        const stopListening = onAbort(signal, () => {
          waiter.cancelled = true;
          reject(signal.reason);
        });
        waiter.resolve = () => {
          stopListening();
          resolve();
        };
      }
      if (queue === 'retry') this.retries.push(waiter);
      else this.waiters.push(waiter);
    });
  }

  private drain(): void {
    while (this.retries.length > 0 && this.active < this.limit) {
      const waiter = this.retries.shift()!;
      if (waiter.cancelled) continue;
      this.active++;
      waiter.resolve();
    }
    while (this.head < this.waiters.length && this.active < this.limit) {
      const waiter = this.waiters[this.head++]!;
      if (waiter.cancelled) continue;
      this.active++;
      waiter.resolve();
    }
    if (this.head > 1024 && this.head * 2 > this.waiters.length) {
      this.waiters = this.waiters.slice(this.head);
      this.head = 0;
    }
  }
}
