import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, startMockOpenAIServer } from '../../test/support/mock-openai-server.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { EmitEvent } from '../spec/chat-model.js';
import type { TranscriptEvent } from '../spec/event.js';
import { resolveModelRoles } from './resolve-model-roles.js';

// Sustained 429s over real HTTP (the loopback server), on a virtual clock: the server grants
// BUDGET requests per WINDOW_MS of virtual time and answers every other request 429 with
// `Retry-After: 0`. Virtual time only moves when every call is either asleep in a back-off or
// finished, so the outcome does not depend on the machine's speed.

const SAMPLES = 40;
const BUDGET = 10;
const WINDOW_MS = 500;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A seeded generator in [0, 1) (mulberry32), for the back-off jitter. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A clock that jumps to the next wake-up once all `total` calls are asleep or finished. */
function virtualClock(total: number) {
  let now = 0;
  let finished = 0;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  const advance = () => {
    if (sleepers.length === 0 || sleepers.length + finished < total) return;
    now = Math.min(...sleepers.map((sleeper) => sleeper.at));
    for (const sleeper of sleepers.filter((candidate) => candidate.at <= now)) {
      sleepers.splice(sleepers.indexOf(sleeper), 1);
      sleeper.wake();
    }
  };
  return {
    now: () => now,
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        sleepers.push({ at: now + ms, wake });
        advance();
      }),
    finish: () => {
      finished++;
      advance();
    },
  };
}

async function runSamples({ minRetryDelayMs }: { minRetryDelayMs?: number }) {
  const clock = virtualClock(SAMPLES);
  const granted = new Map<number, number>();
  const server = await startMockOpenAIServer({
    maxRequests: 2_000,
    handler: (body) => {
      const window = Math.floor(clock.now() / WINDOW_MS);
      const used = granted.get(window) ?? 0;
      if (used >= BUDGET) return { type: 'status', status: 429, headers: { 'retry-after': '0' } };
      granted.set(window, used + 1);
      return { type: 'text', text: `done ${lastUserText(body)}` };
    },
  });
  cleanups.push(() => server.close());
  const roles = await resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: [{ role: 'agent', spec: `openai-compatible:m@${server.baseURL}` }],
    env: { OPENAI_COMPATIBLE_API_KEY: 'sk-test' },
    cacheDir: null,
    cacheReads: false,
    maxRetries: 5,
    ...(minRetryDelayMs === undefined ? {} : { minRetryDelayMs }),
    sleep: clock.sleep,
    now: clock.now,
    random: seeded(7),
  });
  cleanups.push(() => roles.close());
  const attempts: number[] = [];
  const outcomes = await Promise.all(
    Array.from({ length: SAMPLES }, async (_, index) => {
      const emit: EmitEvent = (event) => {
        if (event.type === 'model-call') attempts.push(event.attempts);
        return { ...event, id: `e${index}`, time: 't' } as TranscriptEvent;
      };
      const agent = roles.factory({ sampleId: `s${index}`, epoch: 1, emit, signal: new AbortController().signal });
      try {
        const result = await agent
          .model('agent')
          .generate({ messages: [{ role: 'user', content: `s${index}` }], settings: {} });
        return result.text;
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      } finally {
        clock.finish();
      }
    }),
  );
  return { outcomes, attempts, requests: server.count, windows: granted };
}

describe('retries under sustained 429s with Retry-After: 0 (loopback server)', () => {
  it('finishes every sample: the 0 s hint is raised to the back-off floor', { timeout: 30_000 }, async () => {
    const { outcomes, attempts, requests } = await runSamples({});
    expect(outcomes).toEqual(Array.from({ length: SAMPLES }, (_, index) => `done s${index}`));
    expect(attempts).toHaveLength(SAMPLES);
    expect(Math.max(...attempts)).toBeLessThanOrEqual(6);
    // Every attempt beyond the first of each call was a 429.
    expect(requests).toBe(attempts.reduce((sum, count) => sum + count, 0));
  });

  it('without the floor (the former behaviour) only the first window is served', { timeout: 30_000 }, async () => {
    const { outcomes, requests } = await runSamples({ minRetryDelayMs: 0 });
    const done = outcomes.filter((outcome) => typeof outcome === 'string');
    expect(done).toHaveLength(BUDGET);
    for (const outcome of outcomes) {
      if (typeof outcome !== 'string') expect(outcome.message).toMatch(/429/);
    }
    // Each refused call burned all six attempts at the same instant.
    expect(requests).toBe(BUDGET + (SAMPLES - BUDGET) * 6);
  });
});
