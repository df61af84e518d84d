import { describe, expect, it } from 'vitest';
import { flagEntries } from './flag-schema.js';
import { runFlagTable } from './run-flag-table.js';
import { runFlagSchema } from './run-flags.js';

describe('runFlagTable', () => {
  it('describes exactly the fields of runFlagSchema, in the same order, with the same metadata', () => {
    // Help is drawn from the table and values are parsed by the schema: they must not drift apart.
    const entries = flagEntries(runFlagSchema);
    expect(entries.map(({ key }) => key)).toEqual(Object.keys(runFlagTable));
    for (const { key, meta } of entries) expect(meta).toEqual(runFlagTable[key as keyof typeof runFlagTable]);
  });
});
