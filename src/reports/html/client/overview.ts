/** The overview and metrics pages (browser JavaScript). */
export const OVERVIEW_JS = `
function usageRows(run) {
  return Object.keys(run.usage).map(function (role) {
    var u = run.usage[role];
    return [role, String(u.calls), String(u.cachedCalls), String(u.inputTokens), String(u.outputTokens), u.costUsd === null ? 'unknown' : u.costUsd.toFixed(4)];
  });
}
function definitionLink(row, anchor, label) {
  if (!anchor) return label;
  return h('a', { href: DATA.metricsDoc + '#' + anchor, class: 'def', title: row.definition ? row.definition.definition : '' }, label);
}
function headlineRows(i) {
  var ids = DATA.report.headline.length ? DATA.report.headline : DATA.report.rows.slice(0, 4).map(function (r) { return r.id; });
  var rows = DATA.report.rows.filter(function (r) { return ids.indexOf(r.id) !== -1; });
  if (i === undefined) return rows;
  // The headline is the first suite's: a run of another suite shows its own first four metrics.
  var has = function (r) { return r.cells[i].value !== null; };
  if (rows.some(has)) return rows;
  var own = DATA.report.rows.filter(has);
  return own.length ? own.slice(0, 4) : rows;
}
function renderOverview() {
  var out = [];
  DATA.report.runs.forEach(function (run, i) {
    var info = DATA.runs[i];
    var headline = headlineRows(i);
    out.push(section(runName(i),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Suite'), h('dd', {}, run.suite + ' ' + JSON.stringify(run.options)),
        h('dt', {}, 'Models'), h('dd', {}, Object.keys(run.models).map(function (role) { return role + '=' + run.models[role].join(','); }).join('; ')),
        h('dt', {}, 'Defenses'), h('dd', {}, run.defenses.join(', ') || 'vanilla'),
        h('dt', {}, 'Dataset'), h('dd', {}, info.dataset.name + ' · ' + info.dataset.files + ' files · hash ' + info.dataset.hash.slice(0, 16)),
        h('dt', {}, 'Samples'), h('dd', {}, run.counts.success + ' ok / ' + run.counts.error + ' error / ' + run.counts.missing + ' missing' + (run.complete ? '' : ' (incomplete' + (info.stopReason ? ': ' + info.stopReason : '') + ')')),
        h('dt', {}, 'Epochs'), h('dd', {}, String(run.epochs)),
        h('dt', {}, 'Cost'), h('dd', {}, run.costUsd === null ? 'unknown' : '$' + run.costUsd.toFixed(4)),
        info.rescoredFrom ? [h('dt', {}, 'Rescored from'), h('dd', { class: 'lineage' }, info.rescoredFrom.runId + ' (changed: ' + (Object.keys(info.rescoredFrom.changed).map(function (k) { return k + ' ' + JSON.stringify(info.rescoredFrom.changed[k].from) + ' → ' + JSON.stringify(info.rescoredFrom.changed[k].to); }).join('; ') || 'nothing') + ')')] : null),
      h('h3', {}, 'Headline metrics'),
      table(['Metric', 'Value', '95% CI', 'n / errors / n/a'], headline.map(function (row) {
        var v = row.cells[i].value;
        return [definitionLink(row, row.anchor, row.label + (row.scale === 'percent' ? ' (%)' : '')), fmt(v, row.scale), fmtCi(v, row.scale) || '—', v ? v.n + ' / ' + v.errors + ' / ' + v.notApplicable : '—'];
      })),
      info.charts ? [h('h3', {}, 'Charts'), info.charts.map(suiteChart)] : null,
      h('h3', {}, 'Usage and cost by role'),
      table(['Role', 'Calls', 'Cached', 'Input tokens', 'Output tokens', 'Cost (USD)'], usageRows(run)),
      barChart({ title: 'Cost by role (USD)', bars: Object.keys(run.usage).map(function (role) { return { label: role, value: run.usage[role].costUsd }; }), format: function (v) { return '$' + v.toFixed(4); } }),
      run.judges.length ? [h('h3', {}, 'Judge health'), table(['Judge', 'Model', 'Calls', 'Pass', 'Fail', 'n/a', 'Error', 'Most common errors'], run.judges.map(function (j) {
        return [j.judge, j.model, String(j.calls), String(j.pass), String(j.fail), String(j.notApplicable), String(j.error), j.topErrors.map(function (e) { return e.message + ' ×' + e.count; }).join('; ') || '—'];
      }))] : null,
      info.errorCauses.length ? [h('h3', {}, 'Errors by cause'), table(['Where', 'Error', 'Message', 'Count', 'Example'], info.errorCauses.map(function (c) {
        return [c.where, c.name, c.label, String(c.count), h('a', { href: route(['sample', i, c.exampleSampleId]) }, c.exampleSampleId)];
      }))] : null));
  });
  if (DATA.report.runs.length > 1) out.push(tradeoffChart());
  return out;
}
function tradeoffChart() {
  var rows = headlineRows().filter(function (r) { return r.definition && r.definition.direction !== 'neutral'; });
  if (rows.length < 2) return null;
  var x = rows[0], y = rows[1];
  var points = DATA.report.runs.map(function (run, i) {
    return { label: runName(i), x: x.cells[i].value ? x.cells[i].value.value : NaN, y: y.cells[i].value ? y.cells[i].value.value : NaN };
  });
  return section('Privacy–utility trade-off', scatter({ title: x.label + ' vs ' + y.label + ' per run (line: Pareto frontier)', points: points, xLabel: x.label, yLabel: y.label, xLower: x.definition.direction === 'lower', yLower: y.definition.direction === 'lower' }));
}
function suiteGroups() {
  var groups = [];
  DATA.report.runs.forEach(function (run, i) {
    var group = groups.filter(function (g) { return g.suite === run.suite; })[0];
    if (!group) { group = { suite: run.suite, runs: [] }; groups.push(group); }
    group.runs.push(i);
  });
  return groups;
}
function metricsTable(indices) {
  var runs = DATA.report.runs;
  var header = ['Metric'];
  indices.forEach(function (i) { var l = runs.length > 1 ? ' — ' + runName(i) : ''; header.push('Value' + l, '95% CI' + l, 'Worst' + l, 'n / errors / n/a' + l); });
  // With runs of several suites, each suite's table lists only the metrics its runs report.
  var rows = DATA.report.rows.filter(function (row) {
    return indices.length === runs.length || indices.some(function (i) { return row.cells[i].value !== null || row.cells[i].worst !== null; });
  }).map(function (row) {
    var cells = [h('span', {}, definitionLink(row, row.anchor, row.label + (row.scale === 'percent' ? ' (%)' : '')), row.definition ? h('div', { class: 'muted' }, row.definition.definition) : null)];
    indices.forEach(function (i) {
      var cell = row.cells[i];
      cells.push(fmt(cell.value, row.scale), fmtCi(cell.value, row.scale) || '—', cell.worst ? fmt(cell.worst, row.scale) + (fmtCi(cell.worst, row.scale) ? ' (' + fmtCi(cell.worst, row.scale) + ')' : '') : '—', cell.value ? cell.value.n + ' / ' + cell.value.errors + ' / ' + cell.value.notApplicable : '—');
    });
    return cells;
  });
  return table(header, rows, 'metrics');
}
function renderMetrics() {
  var runs = DATA.report.runs;
  var note = h('p', { class: 'muted' }, '95% CI: Wilson for proportions of independent units, bootstrap over scenarios for clustered or aggregated metrics; Wilson over scenarios when every scenario of a clustered rate has the same outcome.');
  var groups = suiteGroups();
  var out = groups.length > 1
    ? groups.map(function (g) { return section('Metrics — ' + g.suite, metricsTable(g.runs)); }).concat([note])
    : [section('Metrics', metricsTable(runs.map(function (_, i) { return i; })), note)];
  var bars = headlineRows()[0];
  if (bars && runs.length > 1) {
    out.push(barChart({ title: bars.label + ' per run (95% CI)', bars: runs.map(function (run, i) { var v = bars.cells[i].value; return { label: runName(i), value: v ? v.value : null, lower: v && v.ci95 ? v.ci95[0] : undefined, upper: v && v.ci95 ? v.ci95[1] : undefined }; }), format: function (v) { return bars.scale === 'percent' ? (v * 100).toFixed(1) + '%' : v.toFixed(3); } }));
  }
  var defs = {};
  DATA.report.rows.forEach(function (r) { if (r.definition) defs[r.id] = r; });
  DATA.runs.forEach(function (info, i) {
    var groups = info.groups || {};
    Object.keys(groups).forEach(function (by) {
      var keys = Object.keys(groups[by]);
      var metricIds = [];
      keys.forEach(function (k) { Object.keys(groups[by][k]).forEach(function (m) { if (metricIds.indexOf(m) === -1) metricIds.push(m); }); });
      var scaleOf = function (m) { return defs[m] ? defs[m].scale : 'raw'; };
      var first = metricIds.filter(function (m) { return scaleOf(m) === 'percent'; })[0];
      out.push(section('By ' + by + (runs.length > 1 ? ' — ' + runName(i) : ''),
        table([by].concat(metricIds.map(function (m) { return defs[m] ? definitionLink(defs[m], defs[m].anchor, defs[m].label) : m; })), keys.map(function (k) {
          return [k].concat(metricIds.map(function (m) { var v = groups[by][k][m]; return v ? fmt(v, scaleOf(m)) + (fmtCi(v, scaleOf(m)) ? ' (' + fmtCi(v, scaleOf(m)) + ')' : '') : '—'; }));
        })),
        first ? barChart({ title: (defs[first] ? defs[first].label : first) + ' by ' + by, max: 1, bars: keys.map(function (k) { var v = groups[by][k][first]; return { label: k, value: v ? v.value : null, lower: v && v.ci95 ? v.ci95[0] : undefined, upper: v && v.ci95 ? v.ci95[1] : undefined }; }), format: function (v) { return (v * 100).toFixed(1) + '%'; } }) : null));
    });
  });
  return out;
}
`;
