import { describe, expect, it } from 'vitest';
import { describeObjectSchema } from '../spec/describe-object-schema.js';
import { findSuiteEntry, loadedSuite, loadSuite, loadSuites, suiteRegistry } from './registry.js';

describe('suiteRegistry', () => {
  it.each(suiteRegistry.map((entry) => entry.id))('the entry of %s matches its loaded suite', async (id) => {
    const entry = findSuiteEntry(id);
    const suite = await loadSuite(id);
    expect(suite.id).toBe(entry.id);
    // What `run --help` says before loading the suite is what the suite itself declares.
    expect(entry.flags.map(({ flag, key }) => ({ flag, key }))).toEqual(suite.flags ?? []);
    const docs = describeObjectSchema(suite.options);
    for (const flag of entry.flags) {
      expect(docs.find((doc) => doc.key === flag.key)?.description, flag.flag).toBe(flag.description);
    }
  });

  it('loads a suite once and keeps it for synchronous callers', async () => {
    const first = await loadSuite('toy-leak');
    expect(await loadSuite('toy-leak')).toBe(first);
    expect(loadedSuite('toy-leak')).toBe(first);
    expect((await loadSuites()).map((suite) => suite.id)).toEqual(suiteRegistry.map((entry) => entry.id));
  });

  it('refuses an unknown suite with the registered ids', () => {
    expect(() => loadSuite('nope')).toThrow(
      "unknown suite 'nope': use one of confaide, pac, privacybench, privacybench-calibration, privacylens, privact-tree, toy-leak (see `confidant list suites`)",
    );
  });
});
