import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reportHeader, reportRecord } from '../__fixtures__/report-run.js';
import { APP_JS, renderHtml } from './render-html.js';
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
