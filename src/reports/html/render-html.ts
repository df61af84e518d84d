import { createHash } from 'node:crypto';
import type { SampleRecord } from '../../spec/run-record.js';
import { CHARTS_JS } from './client/charts.js';
import { COMPARE_JS } from './client/compare.js';
import { CORE_JS } from './client/core.js';
import { OVERVIEW_JS } from './client/overview.js';
import { SAMPLE_VIEWS_JS } from './client/sample-views.js';
import { SAMPLES_JS } from './client/samples.js';
import { STYLES_CSS } from './client/styles.js';
import { embedJson, escapeHtml } from './embed-json.js';
import type { ViewModel } from './view-model.js';

/** The whole app script, in load order (the router at the end renders the first page). */
export const APP_JS = [CORE_JS, CHARTS_JS, OVERVIEW_JS, SAMPLE_VIEWS_JS, SAMPLES_JS, COMPARE_JS].join('\n');

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of the page: nothing loads from anywhere; only the one inline script
 * and stylesheet run (by hash), images only as data: URLs, no forms, no base URL. The
 * viewer (`connect: 'self'`) may fetch its own API; the static file may fetch nothing.
 */
export function contentSecurityPolicy({ connect }: { connect: 'none' | 'self' }): string {
  return [
    "default-src 'none'",
    `script-src ${hash(APP_JS)}`,
    `style-src ${hash(STYLES_CSS)}`,
    'img-src data:',
    `connect-src '${connect}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The page around its data block: the text before the block's JSON and the text after it. */
function pageAround(model: ViewModel): { before: string; after: string } {
  const csp = contentSecurityPolicy({ connect: model.mode === 'server' ? 'self' : 'none' });
  const before = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(model.title)}</title>`,
    `<style>${STYLES_CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="app">Loading… (this report needs JavaScript)</div>',
    '<script type="application/json" id="confidant-data">',
  ].join('\n');
  const after = ['</script>', `<script>${APP_JS}</script>`, '</body>', '</html>', ''].join('\n');
  return { before, after };
}

/**
 * One self-contained HTML page: inline CSS and JS, the data as an inert JSON block with `<`
 * escaped, and a strict CSP `<meta>`. Every untrusted string reaches the DOM as text.
 */
export function renderHtml(model: ViewModel): string {
  const { before, after } = pageAround(model);
  return `${before}${embedJson(model)}${after}`;
}

/** One run's full records for a static page, read one at a time by id (in `ids` order). */
export type EmbeddedRunRecords = { ids: Iterable<string>; read(id: string): Promise<SampleRecord> };

/** Text is handed to `write` in pieces of about this many characters. */
export const HTML_WRITE_CHARS = 1 << 20;

/**
 * Writes the page `renderHtml` gives for `model` with `records` (per run, as `ViewModel.records`
 * holds them) embedded, byte for byte, while holding one record at a time: the records are read
 * (`EmbeddedRunRecords.read`) and escaped as they are written, in pieces of about
 * `HTML_WRITE_CHARS`. `model` must not hold `records` itself. Keys come in the order an object
 * built from the ids would give them to `JSON.stringify` (array-index ids first, ascending).
 */
export async function writeHtml({
  model,
  records,
  write,
}: {
  model: Omit<ViewModel, 'records'>;
  records: readonly EmbeddedRunRecords[];
  write: (text: string) => void;
}): Promise<void> {
  const { before, after } = pageAround(model as ViewModel);
  const head = embedJson(model);
  let pending = `${before}${head.slice(0, -1)},${embedJson('records')}:[`;
  const push = (text: string) => {
    pending += text;
    if (pending.length >= HTML_WRITE_CHARS) {
      write(pending);
      pending = '';
    }
  };
  for (const [index, run] of records.entries()) {
    push(index === 0 ? '{' : ',{');
    let first = true;
    for (const id of propertyOrder(run.ids)) {
      push(`${first ? '' : ','}${embedJson(id)}:${embedJson(await run.read(id))}`);
      first = false;
    }
    push('}');
  }
  write(`${pending}]}${after}`);
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** Whether `key` is an array index, which objects list first, in ascending order. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) <= MAX_ARRAY_INDEX;
}

/** Distinct keys in the order an object given them in this order lists its own properties. */
function propertyOrder(keys: Iterable<string>): string[] {
  const indices: string[] = [];
  const others: string[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    (isArrayIndex(key) ? indices : others).push(key);
  }
  indices.sort((a, b) => Number(a) - Number(b));
  return [...indices, ...others];
}
