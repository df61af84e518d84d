/**
 * The app's DOM helpers and data source (browser JavaScript, inlined into the page). Every string
 * reaches the page as a text node or an attribute value through `h`; nothing is parsed as HTML.
 */
export const CORE_JS = String.raw`
'use strict';
var DATA = JSON.parse(document.getElementById('confidant-data').textContent);
var APP = document.getElementById('app');

function h(tag, attrs) {
  var el = document.createElement(tag);
  var a = attrs || {};
  Object.keys(a).forEach(function (key) {
    var value = a[key];
    if (value === undefined || value === null || value === false) return;
    if (key === 'class') el.className = value;
    else if (key.slice(0, 2) === 'on') el.addEventListener(key.slice(2), value);
    else if (key === 'href') el.setAttribute('href', safeHref(value));
    else el.setAttribute(key, String(value));
  });
  for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
  return el;
}
function append(el, child) {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { append(el, c); }); return; }
  el.append(child instanceof Node ? child : document.createTextNode(String(child)));
}
/** Only in-app routes and the metrics reference are ever links; anything else becomes inert. */
function safeHref(value) {
  var text = String(value);
  if (text.charAt(0) === '#') return text;
  if (text.indexOf(DATA.metricsDoc + '#') === 0 && /^[A-Za-z0-9_.#\/-]+$/.test(text)) return text;
  return '#';
}
function route(parts) { return '#/' + parts.map(function (p) { return encodeURIComponent(String(p)); }).join('/'); }
function fmt(value, scale) {
  if (value === null || value === undefined) return '—';
  if (value.value === null) return 'n/a';
  if (scale === 'percent') return (value.value * 100).toFixed(1);
  if (scale === 'count') return String(Math.round(value.value));
  return value.value.toFixed(3);
}
function fmtCi(value, scale) {
  if (!value || value.value === null || !value.ci95 || scale === 'count') return '';
  var show = function (x) { return scale === 'percent' ? (x * 100).toFixed(1) : x.toFixed(3); };
  return show(value.ci95[0]) + '–' + show(value.ci95[1]);
}
function table(headers, rows, cls) {
  return h('table', { class: cls || '' },
    h('thead', {}, h('tr', {}, headers.map(function (x) { return h('th', {}, x); }))),
    h('tbody', {}, rows.map(function (r) { return h('tr', {}, r.map(function (c) { return h('td', {}, c); })); })));
}
function section(title) {
  var rest = Array.prototype.slice.call(arguments, 1);
  return h('section', {}, h('h2', {}, title), rest);
}
function pretty(value) { return typeof value === 'string' ? value : JSON.stringify(value, null, 2); }

/**
 * Text with every occurrence of a needle wrapped in <mark>, built from text nodes. Case-insensitive,
 * and whitespace in a needle matches any run of whitespace, because keyword hits and judge quotes
 * are often normalised (one space) while the text keeps its line breaks. A needle is escaped into
 * a pattern, never run as one.
 */
function highlighted(text, needles) {
  var frag = document.createDocumentFragment();
  var marks = [];
  (needles || []).forEach(function (needle) {
    var n = String(needle).trim();
    if (n.length < 2) return;
    var pattern = new RegExp(n.split(/\s+/).map(function (part) { return part.replace(/[.*+?^$(){}|[\]\\\/]/g, '\\$&'); }).join('\\s+'), 'giu');
    var m;
    while ((m = pattern.exec(text)) !== null) {
      if (m[0].length === 0) { pattern.lastIndex += 1; continue; }
      marks.push([m.index, m.index + m[0].length]);
    }
  });
  marks.sort(function (x, y) { return x[0] - y[0] || y[1] - x[1]; });
  var pos = 0;
  marks.forEach(function (m) {
    if (m[0] < pos) return;
    frag.append(document.createTextNode(text.slice(pos, m[0])));
    frag.append(h('mark', { class: 'disclosed', title: 'disclosed (judge evidence or keyword hit)' }, text.slice(m[0], m[1])));
    pos = m[1];
  });
  frag.append(document.createTextNode(text.slice(pos)));
  return frag;
}
function pre(value, needles) { return h('pre', {}, highlighted(pretty(value), needles)); }

var cache = {};
function fetchJson(url) {
  return fetch(url, { headers: { accept: 'application/json' } }).then(function (r) {
    if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
    return r.json();
  });
}
var source = DATA.mode === 'static' ? {
  index: function (run) { return Promise.resolve(DATA.samples[run] || []); },
  record: function (run, id) { return Promise.resolve((DATA.records[run] || {})[id] || null); },
  search: function (run, q) {
    var needle = JSON.stringify(q.toLowerCase()).slice(1, -1);
    var records = DATA.records[run] || {};
    return Promise.resolve((DATA.samples[run] || []).filter(function (row) {
      return JSON.stringify(records[row.id]).toLowerCase().indexOf(needle) !== -1;
    }).map(function (row) { return row.id; }));
  },
} : {
  index: function (run) {
    if (!cache['i' + run]) cache['i' + run] = fetchJson('api/runs/' + run + '/index');
    return cache['i' + run];
  },
  record: function (run, id) { return fetchJson('api/runs/' + run + '/samples/' + encodeURIComponent(id)); },
  search: function (run, q) { return fetchJson('api/runs/' + run + '/search?q=' + encodeURIComponent(q)); },
};
function runIndex(runId) {
  for (var i = 0; i < DATA.runs.length; i++) if (DATA.runs[i].runId === runId) return i;
  return -1;
}
function runName(i) {
  var run = DATA.report.runs[i];
  if (!run) return String(i);
  var models = (run.models.agent || Object.values(run.models)[0] || []).join('+');
  var defenses = run.defenses.filter(function (d) { return d !== 'vanilla'; });
  return run.runId + ' (' + models + (defenses.length ? ' [' + defenses.join(', ') + ']' : '') + ')';
}
`;
