import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../../spec/run-record.js';
import { reportHeader, reportRecord } from '../__fixtures__/report-run.js';
import { APP_JS, HTML_WRITE_CHARS, renderHtml, writeHtml } from './render-html.js';
import { sampleIndexRow } from './sample-index.js';
import { buildViewModel } from './view-model.js';

const record = reportRecord({ id: 's1#e1', output: '</script><script>alert(1)</script><img src=x onerror=alert(2)>' });
const summary = {
  formatVersion: 1 as const,
  runId: 'run-a',
  finishedAt: '2026-11-30T00:00:00.000Z',
  complete: true,
  counts: { planned: 1, success: 1, error: 0, missing: 0 },
  metrics: {},
  usage: {},
  costUsd: 0,
  errorsByName: {},
};
const model = buildViewModel({
  runs: [{ header: reportHeader(), summary }],
  definitions: [],
  headline: [],
  mode: 'static',
  samples: [[sampleIndexRow(record)]],
  records: [[record]],
});

describe('renderHtml', () => {
  const html = renderHtml(model);

  it('has exactly the two script elements it writes: untrusted text cannot open or close one', () => {
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
  });

  it('allows only its own inline script and style, by hash, and no network', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const digest = createHash('sha256').update(APP_JS).digest('base64');
    expect(csp).toContain(`script-src &#39;sha256-${digest}&#39;`);
    expect(csp).toContain('default-src &#39;none&#39;');
    expect(csp).toContain('connect-src &#39;none&#39;');
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('the app never parses strings as HTML', () => {
    expect(APP_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

describe('writeHtml', () => {
  it('writes renderHtml’s page byte for byte, reading one record at a time, in pieces', async () => {
    const big = 'x'.repeat(HTML_WRITE_CHARS);
    // Ids an object lists out of insertion order (array indices first, ascending), untrusted text, U+2028.
    const ids = ['s1#e1', '10', '2', '__proto__', 's0#e1', '4294967295', '0', `s\u2028</script>`];
    const runRecords: SampleRecord[][] = [
      ids.map((id, index) => reportRecord({ id, output: index === 1 ? big : `</script><!-- ${id} &` })),
      [],
      [reportRecord({ id: 'only', output: big })],
    ];
    const runs = runRecords.map((_, index) => ({ header: reportHeader({ runId: `run-${index}` }), summary }));
    const built = (records?: SampleRecord[][]) =>
      buildViewModel({
        runs,
        definitions: [],
        headline: [],
        mode: 'static',
        samples: runRecords.map((list) => list.map(sampleIndexRow)),
        ...(records === undefined ? {} : { records }),
      });
    const expected = renderHtml(built(runRecords));
    const chunks: string[] = [];
    // Records read when each piece was written: pieces go out while records are still to be read.
    let reads = 0;
    const readsAtWrite: number[] = [];
    await writeHtml({
      model: built(),
      records: runRecords.map((list) => ({
        ids: list.map((record) => record.id),
        read: async (id) => {
          reads += 1;
          const record = list.find((candidate) => candidate.id === id);
          if (record === undefined) throw new Error(`no ${id}`);
          return record;
        },
      })),
      write: (chunk) => {
        chunks.push(chunk);
        readsAtWrite.push(reads);
      },
    });
    expect(chunks.join('')).toBe(expected);
    expect(reads).toBe(ids.length + 1);
    expect(readsAtWrite.filter((count) => count < reads).length).toBeGreaterThan(0);
    expect(chunks.every((chunk) => chunk.length < 3 * HTML_WRITE_CHARS)).toBe(true);
  });
});
