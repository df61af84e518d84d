/** The compare pages and the router (browser JavaScript). */
export const COMPARE_JS = String.raw`
function pts(x) { return (x >= 0 ? '+' : '') + (x * 100).toFixed(1); }
function renderCompare(ci) {
  if (DATA.comparisons.length === 0) {
    return [section('Compare', h('p', {}, DATA.runs.length < 2 ? 'Open two or more runs of one suite to compare them.' : 'These runs cannot be compared.'),
      DATA.incomparable.map(function (x) { return h('p', { class: 'error' }, x.reason); }))];
  }
  var c = DATA.comparisons[ci] || DATA.comparisons[0];
  var a = runIndex(c.a.runId), b = runIndex(c.b.runId);
  var defs = {};
  DATA.report.rows.forEach(function (r) { defs[r.id] = r; });
  return [section(c.b.runId + ' vs ' + c.a.runId,
    DATA.comparisons.length > 1 ? h('p', {}, DATA.comparisons.map(function (x, i) { return [h('a', { href: route(['compare', i]) }, x.b.runId + ' vs ' + x.a.runId), ' ']; })) : null,
    h('p', {}, c.shared + ' samples in both runs' + (c.onlyInA + c.onlyInB ? ' (left out: ' + c.onlyInA + ' only in A, ' + c.onlyInB + ' only in B)' : '') + '.'),
    table(['Metric', 'A', 'A 95% CI', 'B', 'B 95% CI', 'B − A'], c.metrics.map(function (m) {
      var row = defs[m.id], scale = row ? row.scale : 'raw';
      return [row ? definitionLink(row, row.anchor, row.label) : m.id, fmt(m.a, scale), fmtCi(m.a, scale) || '—', fmt(m.b, scale), fmtCi(m.b, scale) || '—',
        m.difference === null ? '—' : scale === 'percent' ? pts(m.difference) : m.difference.toFixed(3)];
    })),
    h('h3', {}, 'Paired tests per score'),
    table(['Score', 'Pairs', 'Fail A (%)', 'Fail B (%)', 'B − A (pts)', '95% CI', 'McNemar b / c', 'p (exact)', 'Agreement (%)', 'Cohen’s κ'], c.scores.map(function (sc) {
      return [sc.key, String(sc.pairs), (sc.failRateA * 100).toFixed(1), (sc.failRateB * 100).toFixed(1), pts(sc.failRateB - sc.failRateA),
        sc.ci95 ? pts(sc.ci95.lower) + ' to ' + pts(sc.ci95.upper) + (sc.ciMethod === 'newcombe' ? ' (Newcombe)' : '') : '—', sc.mcnemar.b + ' / ' + sc.mcnemar.c,
        sc.mcnemar.pValue < 0.001 ? '<0.001' : sc.mcnemar.pValue.toFixed(3), sc.agreement.percent === null ? '—' : (sc.agreement.percent * 100).toFixed(1),
        sc.agreement.kappa === null ? 'n/a' : sc.agreement.kappa.toFixed(3)];
    })),
    h('p', { class: 'muted' }, '95% CI: paired bootstrap over whole scenarios; when every scenario gave the same difference (the bootstrap collapses to one point), Newcombe’s paired score interval with each scenario counted as one unit, marked (Newcombe).'),
    c.rescore ? h('p', { class: 'muted' }, c.b.runId + ' re-scored the outputs of ' + c.a.runId + ' (changed: ' + (c.rescore.changed.join(', ') || 'nothing') + ').') : null,
    (c.judges || []).length ? [h('h3', {}, 'Judge agreement'), table(['Judge', 'Model A', 'Model B', 'Calls', 'Agreement (%)', 'Cohen’s κ'], c.judges.map(function (j) {
      return [j.judge, j.modelA, j.modelB, String(j.agreement.n), j.agreement.percent === null ? '—' : (j.agreement.percent * 100).toFixed(1), j.agreement.kappa === null ? 'n/a' : j.agreement.kappa.toFixed(3)];
    }), 'judge-agreement')] : null,
    h('h3', {}, 'Flipped samples (' + c.flipped.length + ')'),
    c.flipped.length === 0 ? h('p', {}, 'No sample changed between pass and fail.') :
      table(['Sample', 'Scenario', 'Score', 'A', 'B'], c.flipped.map(function (f) {
        return [h('a', { href: route(['flip', DATA.comparisons.indexOf(c), f.sampleId]), class: 'flip-link' }, f.sampleId), f.scenarioId, f.key, f.a, f.b];
      }), 'flipped'),
    a < 0 || b < 0 ? h('p', { class: 'error' }, 'A compared run is not open in this view.') : null)];
}
function renderFlip(ci, id) {
  var c = DATA.comparisons[ci];
  if (!c) return [section('Compare', h('p', { class: 'error' }, 'No such comparison.'))];
  var a = runIndex(c.a.runId), b = runIndex(c.b.runId);
  var left = h('div', { class: 'side' }, 'Loading…'), right = h('div', { class: 'side' }, 'Loading…');
  source.record(a, id).then(function (r) { left.replaceChildren(h('h3', {}, 'A: ' + c.a.runId), sampleView(a, r)); });
  source.record(b, id).then(function (r) { right.replaceChildren(h('h3', {}, 'B: ' + c.b.runId), sampleView(b, r)); });
  return [section('Sample ' + id + ' in both runs', h('p', {}, h('a', { href: route(['compare', ci]) }, '← back to the comparison')), h('div', { class: 'side-by-side' }, left, right))];
}
function parseHash() {
  var hash = location.hash.replace(/^#\/?/, '');
  var q = hash.indexOf('?');
  var path = (q === -1 ? hash : hash.slice(0, q)).split('/').filter(Boolean).map(decodeURIComponent);
  var params = {};
  if (q !== -1) hash.slice(q + 1).split('&').forEach(function (kv) { var i = kv.indexOf('='); if (i > 0) params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); });
  return { path: path, params: params };
}
function render() {
  var where = parseHash();
  var page = where.path[0] || 'overview';
  var tabs = [['overview', 'Overview'], ['metrics', 'Metrics'], ['samples', 'Samples'], ['compare', 'Compare']];
  var nav = h('nav', {}, h('span', { class: 'brand' }, DATA.title), tabs.map(function (t) {
    return h('a', { href: '#/' + t[0], class: page === t[0] || (t[0] === 'samples' && page === 'sample') || (t[0] === 'compare' && page === 'flip') ? 'active' : '' }, t[1]);
  }));
  var content;
  if (page === 'metrics') content = renderMetrics();
  else if (page === 'samples') content = renderSamples(where.params);
  else if (page === 'sample') content = renderSample(Number(where.path[1] || 0), where.path[2] || '');
  else if (page === 'compare') content = renderCompare(Number(where.path[1] || 0));
  else if (page === 'flip') content = renderFlip(Number(where.path[1] || 0), where.path[2] || '');
  else content = renderOverview();
  APP.replaceChildren(nav, h('main', {}, content));
  document.title = DATA.title;
}
window.addEventListener('hashchange', render);
render();
`;
