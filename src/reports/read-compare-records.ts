import type { RunStore } from '../spec/run-store.js';
import { type CompareRecord, compareRecord } from './compare-runs.js';

/**
 * The latest record of every sample of a run in its `compareRecord` form, in the order
 * `readSamples` gives them (first written first), read in one streaming pass (`scanSamples`
 * without events): a run of any size is held as ids, score keys and verdicts, never as records.
 * Repeated strings (scenario ids, score keys, verdicts, judges) are shared between rows.
 */
export async function readCompareRecords(store: Pick<RunStore, 'scanSamples'>): Promise<CompareRecord[]> {
  const latest = new Map<string, CompareRecord>();
  const intern = createInterner();
  await store.scanSamples({ events: false }, (record) => latest.set(record.id, compareRecord(record, intern)));
  return [...latest.values()];
}

/** A string interner: equal strings come back as one shared string. */
export function createInterner(): (text: string) => string {
  const strings = new Map<string, string>();
  return (text) => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
}
