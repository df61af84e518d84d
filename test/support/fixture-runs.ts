import { mkdirSync } from 'node:fs';
import { reportHeader } from '../../src/reports/__fixtures__/report-run.js';
import { buildSummary } from '../../src/runner/build-summary.js';
import type { RunHeader, SampleRecord } from '../../src/spec/run-record.js';
import { DirectoryRunStore } from '../../src/store/index.js';
import { loadSuites } from '../../src/suites/registry.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

/**
 * Writes a run directory as a finished run leaves it (header.json, samples.jsonl, summary.json),
 * from records made by hand: report, compare and view tests need known transcripts and verdicts,
 * not a model. The summary is computed by the real `buildSummary` of the header's suite.
 */
export async function writeFixtureRun({
  dir,
  records,
  header = {},
}: {
  dir: string;
  records: readonly SampleRecord[];
  header?: Partial<RunHeader>;
}): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const full = reportHeader({ sampleIds: records.map((record) => record.id), ...header });
  const store = new DirectoryRunStore(dir);
  await store.writeHeader(full);
  for (const record of records) await store.appendSample(record);
  const suite = findSuite(full.suite.id);
  await store.writeSummary(
    buildSummary({
      runId: full.runId,
      suite,
      options: suite.options.parse(full.plan.suiteOptions),
      planned: full.sampleIds,
      records: [...records],
      now: new Date(Date.UTC(2026, 10, 30)),
    }),
  );
  return dir;
}
