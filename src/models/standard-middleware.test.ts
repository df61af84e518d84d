import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { standardMiddleware } from './standard-middleware.js';
import { UsageLedger } from './usage-ledger.js';

describe('standardMiddleware', () => {
  it('uses the documented order, omitting what is not configured', () => {
    const ledger = new UsageLedger();
    const full = standardMiddleware({
      cache: null,
      cacheReads: true,
      endpointSet: [],
      ledger,
      maxRetries: 5,
      limiter: new AdaptiveLimiter(),
    });
    expect(full.map((layer) => layer.id)).toEqual([
      'extract-reasoning',
      'record-events',
      'usage',
      'retry',
      'rate-limit',
    ]);
    const pooled = standardMiddleware({
      cache: null,
      cacheReads: true,
      endpointSet: [],
      ledger,
      maxRetries: 0,
      limiter: null,
    });
    expect(pooled.map((layer) => layer.id)).toEqual(['extract-reasoning', 'record-events', 'usage', 'retry']);
  });
});
