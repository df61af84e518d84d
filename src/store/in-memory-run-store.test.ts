import { describe, expect, it } from 'vitest';
import { InMemoryRunStore } from './in-memory-run-store.js';
import { runStoreContract, testSampleRecord } from './run-store.contract.js';

runStoreContract('InMemoryRunStore', async (options) => new InMemoryRunStore('contract', options));

describe('InMemoryRunStore', () => {
  it('counts superseded appends in appendedCount and labels its location', async () => {
    const store = new InMemoryRunStore('label');
    await store.appendSample(testSampleRecord({ id: 'a#e1' }));
    await store.appendSample(testSampleRecord({ id: 'a#e1', attempt: 2 }));
    expect(store.appendedCount).toBe(2);
    expect(store.location).toBe('memory:label');
  });
});
