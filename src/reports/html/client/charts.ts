/**
 * A small SVG chart module (browser JavaScript): bar charts with interval whiskers and a scatter
 * with its Pareto frontier, drawn with createElementNS so labels stay text. Ours rather than a
 * charting library: the page must work offline from one file under a strict CSP, and these two
 * chart kinds need ~100 lines where a library would add hundreds of kilobytes.
 */
export const CHARTS_JS = `
var SVG_NS = 'http://www.w3.org/2000/svg';
function s(tag, attrs) {
  var el = document.createElementNS(SVG_NS, tag);
  Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
  for (var i = 2; i < arguments.length; i++) {
    var c = arguments[i];
    if (c === undefined || c === null) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
/** Horizontal bars: [{ label, value, lower?, upper? }], values on their own scale (max from data or 'max'). */
function barChart(opts) {
  var bars = opts.bars.filter(function (b) { return typeof b.value === 'number' && isFinite(b.value); });
  if (bars.length === 0) return null;
  var row = 22, left = 190, width = 560, top = 24;
  var max = opts.max || Math.max.apply(null, bars.map(function (b) { return Math.max(b.value, b.upper || 0); })) || 1;
  var scale = function (v) { return left + (v / max) * (width - left - 60); };
  var svg = s('svg', { class: 'chart', width: width, height: top + bars.length * row + 10, role: 'img', 'aria-label': opts.title },
    s('title', {}, opts.title), s('text', { x: 0, y: 14, class: 'chart-title' }, opts.title));
  bars.forEach(function (b, i) {
    var y = top + i * row;
    svg.append(s('text', { x: left - 6, y: y + 14, 'text-anchor': 'end', class: 'chart-label' }, b.label.length > 30 ? b.label.slice(0, 29) + '…' : b.label));
    svg.append(s('rect', { x: left, y: y + 3, width: Math.max(1, scale(b.value) - left), height: row - 8, class: 'bar' }, s('title', {}, b.label + ': ' + opts.format(b.value))));
    if (typeof b.lower === 'number' && typeof b.upper === 'number') {
      svg.append(s('line', { x1: scale(b.lower), x2: scale(b.upper), y1: y + row / 2, y2: y + row / 2, class: 'whisker' }));
    }
    svg.append(s('text', { x: Math.max(scale(b.value), scale(b.upper || 0)) + 4, y: y + 14, class: 'chart-value' }, opts.format(b.value)));
  });
  return svg;
}
/** A suite's chart (SuiteChart): columns over ordered bins, or a curve over an ordered x, with 95% whiskers. */
function suiteChart(spec) {
  var pts = spec.points.filter(function (p) { return typeof p.value === 'number' && isFinite(p.value); });
  if (pts.length === 0) return null;
  var W = 560, H = 260, pad = 46, percent = spec.scale === 'percent';
  var max = percent ? 1 : Math.max.apply(null, spec.points.map(function (p) { return Math.max(p.value || 0, p.upper || 0); })) || 1;
  var n = spec.points.length, step = (W - 2 * pad) / n;
  var X = function (i) { return pad + step * (i + 0.5); };
  var Y = function (v) { return H - pad - (v / max) * (H - 2 * pad); };
  var show = function (v) { return percent ? (v * 100).toFixed(1) + '%' : String(Math.round(v * 100) / 100); };
  var svg = s('svg', { class: 'chart suite-chart ' + spec.kind, width: W, height: H, role: 'img', 'aria-label': spec.title },
    s('title', {}, spec.title), s('text', { x: 0, y: 14, class: 'chart-title' }, spec.title),
    s('line', { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: 'axis' }),
    s('line', { x1: pad, y1: pad, x2: pad, y2: H - pad, class: 'axis' }),
    s('text', { x: W / 2, y: H - 8, 'text-anchor': 'middle', class: 'chart-label' }, spec.xLabel),
    s('text', { x: 12, y: H / 2, transform: 'rotate(-90 12 ' + H / 2 + ')', 'text-anchor': 'middle', class: 'chart-label' }, spec.yLabel),
    s('text', { x: pad - 4, y: pad + 4, 'text-anchor': 'end', class: 'chart-label' }, show(max)));
  spec.points.forEach(function (p, i) {
    svg.append(s('text', { x: X(i), y: H - pad + 14, 'text-anchor': 'middle', class: 'chart-label' }, p.label));
  });
  if (spec.kind === 'curve') {
    svg.append(s('polyline', { points: spec.points.map(function (p, i) { return typeof p.value === 'number' ? X(i) + ',' + Y(p.value) : ''; }).filter(Boolean).join(' '), class: 'curve' }));
  }
  spec.points.forEach(function (p, i) {
    if (typeof p.value !== 'number') return;
    if (spec.kind === 'columns') svg.append(s('rect', { x: X(i) - step * 0.35, y: Y(p.value), width: step * 0.7, height: Math.max(0, H - pad - Y(p.value)), class: 'bar column' }, s('title', {}, p.label + ': ' + show(p.value))));
    else svg.append(s('circle', { cx: X(i), cy: Y(p.value), r: 4, class: 'point' }, s('title', {}, p.label + ': ' + show(p.value))));
    if (typeof p.lower === 'number' && typeof p.upper === 'number') svg.append(s('line', { x1: X(i), x2: X(i), y1: Y(p.lower), y2: Y(p.upper), class: 'whisker' }));
    svg.append(s('text', { x: X(i), y: Y(p.value) - 6, 'text-anchor': 'middle', class: 'chart-value' }, show(p.value)));
  });
  return svg;
}
/** Scatter of points { label, x, y } with the Pareto frontier (lower x better when xLower, higher y better). */
function scatter(opts) {
  var pts = opts.points.filter(function (p) { return isFinite(p.x) && isFinite(p.y); });
  if (pts.length === 0) return null;
  var W = 560, H = 320, pad = 50;
  var xs = pts.map(function (p) { return p.x; }), ys = pts.map(function (p) { return p.y; });
  var x0 = Math.min.apply(null, xs.concat([0])), x1 = Math.max.apply(null, xs.concat([opts.xMax || 0])) || 1;
  var y0 = Math.min.apply(null, ys.concat([0])), y1 = Math.max.apply(null, ys.concat([opts.yMax || 0])) || 1;
  var X = function (v) { return pad + ((v - x0) / (x1 - x0 || 1)) * (W - 2 * pad); };
  var Y = function (v) { return H - pad - ((v - y0) / (y1 - y0 || 1)) * (H - 2 * pad); };
  var svg = s('svg', { class: 'chart', width: W, height: H, role: 'img', 'aria-label': opts.title },
    s('title', {}, opts.title), s('text', { x: 0, y: 14, class: 'chart-title' }, opts.title),
    s('line', { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: 'axis' }),
    s('line', { x1: pad, y1: pad, x2: pad, y2: H - pad, class: 'axis' }),
    s('text', { x: W / 2, y: H - 12, 'text-anchor': 'middle', class: 'chart-label' }, opts.xLabel),
    s('text', { x: 12, y: H / 2, transform: 'rotate(-90 12 ' + H / 2 + ')', 'text-anchor': 'middle', class: 'chart-label' }, opts.yLabel));
  var better = function (p, q) {
    var xb = opts.xLower ? p.x <= q.x : p.x >= q.x;
    var yb = opts.yLower ? p.y <= q.y : p.y >= q.y;
    return xb && yb && (p.x !== q.x || p.y !== q.y);
  };
  var frontier = pts.filter(function (p) { return !pts.some(function (q) { return better(q, p); }); })
    .sort(function (p, q) { return p.x - q.x; });
  if (frontier.length > 1) {
    svg.append(s('polyline', { points: frontier.map(function (p) { return X(p.x) + ',' + Y(p.y); }).join(' '), class: 'frontier' }));
  }
  pts.forEach(function (p) {
    var onFrontier = frontier.indexOf(p) !== -1;
    svg.append(s('circle', { cx: X(p.x), cy: Y(p.y), r: 5, class: onFrontier ? 'point frontier-point' : 'point' }, s('title', {}, p.label)));
    svg.append(s('text', { x: X(p.x) + 7, y: Y(p.y) - 7, class: 'chart-value' }, p.label.length > 28 ? p.label.slice(0, 27) + '…' : p.label));
  });
  return svg;
}
`;
