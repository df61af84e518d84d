import { createHash } from 'node:crypto';
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

/**
 * One self-contained HTML page: inline CSS and JS, the data as an inert JSON block with `<`
 * escaped, and a strict CSP `<meta>`. Every untrusted string reaches the DOM as text.
 */
export function renderHtml(model: ViewModel): string {
  const csp = contentSecurityPolicy({ connect: model.mode === 'server' ? 'self' : 'none' });
  return [
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
    `<script type="application/json" id="confidant-data">${embedJson(model)}</script>`,
    `<script>${APP_JS}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
