/** The sample browser and the sample page (browser JavaScript). */
export const SAMPLES_JS = `
var PAGE = 50;
// A score target's text, as formatScoreTarget writes it (older records stored the text itself).
function targetText(t) {
  if (!t) return '';
  if (typeof t === 'string') return t;
  return Object.keys(t).map(function (k) { return k === 'name' ? String(t[k]) : k + ':' + t[k]; }).join('/');
}
var FILTERS = ['all', 'leaked', 'compliant', 'errored', 'judge-error'];
function matches(row, f) {
  if (f.status === 'leaked' && !row.leaked) return false;
  if (f.status === 'compliant' && !row.compliant) return false;
  if (f.status === 'errored' && row.status !== 'error') return false;
  if (f.status === 'judge-error' && !row.judgeError) return false;
  if (f.scenario && row.scenarioId.toLowerCase().indexOf(f.scenario.toLowerCase()) === -1) return false;
  if (f.epoch && String(row.epoch) !== f.epoch) return false;
  if (f.domain && (row.domain || '').toLowerCase().indexOf(f.domain.toLowerCase()) === -1) return false;
  if (f.variant) {
    var text = Object.keys(row.variant).map(function (k) { return k + '=' + row.variant[k]; }).join(';').toLowerCase();
    if (text.indexOf(f.variant.toLowerCase()) === -1) return false;
  }
  return true;
}
/** A run's defenses as one label ('none' without any): a defense belongs to a run, so filtering by it picks runs. */
function runDefense(i) {
  var d = ((DATA.report.runs[i] || {}).defenses || []).filter(function (x) { return x !== 'vanilla'; });
  return d.length ? d.join('+') : 'none';
}
function renderSamples(params) {
  var run = Number(params.run || 0);
  var defense = params.defense || 'all';
  var defenses = DATA.runs.map(function (r, i) { return runDefense(i); }).filter(function (d, i, all) { return all.indexOf(d) === i; });
  var runsShown = DATA.runs.map(function (r, i) { return i; }).filter(function (i) { return defense === 'all' || runDefense(i) === defense; });
  if (runsShown.length > 0 && runsShown.indexOf(run) === -1) run = runsShown[0];
  var f = { defense: defense, status: params.status || 'all', scenario: params.scenario || '', epoch: params.epoch || '', domain: params.domain || '', variant: params.variant || '', q: params.q || '', page: Number(params.page || 0) };
  var go = function (patch) {
    var next = Object.assign({}, f, { run: run }, patch);
    var query = Object.keys(next).filter(function (k) { return next[k] !== '' && next[k] !== 'all' && !(k === 'page' && next[k] === 0); })
      .map(function (k) { return k + '=' + encodeURIComponent(next[k]); }).join('&');
    location.hash = '#/samples?' + query;
  };
  var list = h('div', { id: 'sample-list' }, 'Loading samples…');
  var input = function (name, label, value) {
    return h('label', {}, label + ' ', h('input', { name: name, value: value, onchange: function (e) { var p = { page: 0 }; p[name] = e.target.value; go(p); } }));
  };
  var controls = h('form', { class: 'filters', onsubmit: function (e) { e.preventDefault(); } },
    defenses.length > 1 ? h('label', {}, 'Defense ', h('select', { name: 'defense', onchange: function (e) { go({ defense: e.target.value, page: 0 }); } },
      ['all'].concat(defenses).map(function (d) { return h('option', { value: d, selected: d === defense }, d); }))) : null,
    DATA.runs.length > 1 ? h('label', {}, 'Run ', h('select', { name: 'run', onchange: function (e) { go({ run: Number(e.target.value), page: 0 }); } },
      runsShown.map(function (i) { return h('option', { value: i, selected: i === run }, runName(i)); }))) : null,
    h('label', {}, 'Show ', h('select', { name: 'status', onchange: function (e) { go({ status: e.target.value, page: 0 }); } },
      FILTERS.map(function (x) { return h('option', { value: x, selected: x === f.status }, x); }))),
    input('scenario', 'Scenario', f.scenario), input('domain', 'Domain', f.domain), input('variant', 'Variant', f.variant), input('epoch', 'Epoch', f.epoch),
    input('q', 'Search text', f.q));
  Promise.all([source.index(run), f.q ? source.search(run, f.q) : Promise.resolve(null)]).then(function (res) {
    var hits = res[1] ? new Set(res[1]) : null;
    var rows = res[0].filter(function (row) { return matches(row, f) && (!hits || hits.has(row.id)); });
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    var shown = rows.slice(f.page * PAGE, f.page * PAGE + PAGE);
    list.replaceChildren(
      h('p', { class: 'count' }, rows.length + ' of ' + res[0].length + ' samples'),
      table(['Sample', 'Scenario', 'Variant', 'Epoch', 'Status', 'Verdicts'], shown.map(function (row) {
        return [h('a', { href: route(['sample', run, row.id]), class: 'sample-link' }, row.id), [row.scenarioId, row.domain ? h('span', { class: 'muted' }, ' · ' + row.domain) : null],
          Object.keys(row.variant).map(function (k) { return k + '=' + row.variant[k]; }).join('; '), String(row.epoch),
          h('span', { class: 'status ' + (row.status === 'error' ? 'bad' : row.leaked ? 'leak' : 'ok') }, row.status === 'error' ? 'error' : row.leaked ? 'leaked' : row.judgeError ? 'judge error' : 'ok'),
          row.error || row.verdicts.join(', ')];
      }), 'samples'),
      h('p', { class: 'pager' },
        f.page > 0 ? h('button', { onclick: function () { go({ page: f.page - 1 }); } }, '← previous') : null,
        ' page ' + (f.page + 1) + ' of ' + pages + ' ',
        f.page + 1 < pages ? h('button', { onclick: function () { go({ page: f.page + 1 }); } }, 'next →') : null));
  }).catch(function (error) { list.replaceChildren(h('p', { class: 'error' }, String(error))); });
  return [section('Samples', controls, list)];
}
function eventCard(event, needles) {
  var skip = ['id', 'time', 'type', 'participantId', 'to', 'round', 'turn', 'replayedFrom'];
  var head = h('div', { class: 'event-head' }, h('b', {}, event.type), event.replayedFrom ? h('span', { class: 'tag' }, 'replayed from ' + event.replayedFrom) : null, event.participantId ? ' · from ' + event.participantId : '',
    event.to !== undefined ? ' → ' + (Array.isArray(event.to) ? event.to.join(', ') : event.to) : '',
    event.round !== undefined ? ' · round ' + event.round : '', event.turn !== undefined ? ' · turn ' + event.turn : '');
  if (event.type === 'judge-call') {
    return h('div', { class: 'event judge' }, head,
      h('details', { class: 'judge-exchange' }, h('summary', {}, 'Judge exchange: ' + event.judge + (event.target ? ' on ' + event.target : '') + ' (' + (event.model || 'unknown model') + ') → ' + event.verdict),
        h('h4', {}, 'Prompt'), pre(event.prompt), h('h4', {}, 'Raw reply'), pre(event.raw === null ? '(no reply)' : event.raw, needles),
        event.parsed !== undefined ? [h('h4', {}, 'Parsed verdict'), pre(event.parsed)] : null,
        explanationOf(event.parsed) ? [h('h4', {}, 'Explanation'), pre(explanationOf(event.parsed), needles)] : null,
        event.error ? [h('h4', {}, 'Error'), pre(event.error)] : null));
  }
  if (event.type === 'model-call') {
    return h('div', { class: 'event model' }, head,
      h('div', {}, event.role + ' · ' + event.provider + ':' + event.modelId + (event.cached ? ' · cached' : '') + (event.error ? ' · ' + event.error.name + ': ' + event.error.message : '')),
      h('details', {}, h('summary', {}, 'Request (' + event.request.messages.length + ' messages)'), event.request.messages.map(function (m) {
        return h('div', { class: 'message' }, h('b', {}, m.role), pre(m.content === undefined ? m : m.content, needles));
      })),
      event.response ? [pre(event.response.text, needles), event.response.toolCalls.length ? [h('h4', {}, 'Tool calls'), pre(event.response.toolCalls, needles)] : null] : null);
  }
  var body = Object.keys(event).filter(function (k) { return skip.indexOf(k) === -1; }).map(function (k) {
    return h('div', { class: 'field' }, h('span', { class: 'key' }, k), pre(event[k], needles));
  });
  return h('div', { class: 'event ' + event.type }, head, body);
}
function explanationOf(parsed) {
  if (!parsed || typeof parsed !== 'object') return '';
  var text = parsed.explanation || parsed.reasoning || parsed.reason;
  return typeof text === 'string' ? text : '';
}
function sampleView(run, record) {
  if (!record) return h('p', { class: 'error' }, 'No such sample in ' + runName(run) + '.');
  var needles = disclosedSpans(record);
  var replayed = record.events.filter(function (e) { return e.replayedFrom; })[0];
  return h('div', { class: 'sample' },
    h('dl', { class: 'facts' }, h('dt', {}, 'Run'), h('dd', {}, runName(run)), h('dt', {}, 'Scenario'), h('dd', {}, record.scenarioId),
      h('dt', {}, 'Variant'), h('dd', {}, JSON.stringify(record.variant)), h('dt', {}, 'Epoch'), h('dd', {}, String(record.epoch)),
      h('dt', {}, 'Status'), h('dd', {}, record.status + ' (attempt ' + record.attempt + ')' + (record.terminationReason ? ', ' + record.terminationReason : ''))),
    record.error ? h('p', { class: 'error' }, record.error.name + ': ' + record.error.message) : null,
    h('h3', {}, 'Scores'),
    table(['Scorer', 'Target', 'Verdict', 'Value', 'Explanation', 'Evidence'], record.scores.map(function (sc) {
      return [sc.scorer, targetText(sc.target), h('span', { class: 'verdict ' + sc.verdict }, sc.verdict), sc.value === null ? '—' : String(sc.value), sc.explanation || '', (sc.evidence || []).map(function (e) { return h('q', {}, e.quote); })];
    })),
    replayed ? h('p', { class: 'muted' }, 'Rescored: the output and transcript are replayed from run ' + replayed.replayedFrom + '; the scores and judge exchanges are this run’s.') : null,
    conversationView(record, needles), toolCallsView(record, needles), workspaceView(record, needles),
    finalActionView(record, needles), defenseView(record, needles), judgeView(record, needles),
    h('h3', {}, 'Output'), pre(record.output === null ? '(none)' : record.output, needles),
    record.input !== undefined ? h('details', {}, h('summary', {}, 'Input'), pre(record.input, needles)) : null,
    h('h3', {}, 'Transcript (' + record.events.length + ' events)'),
    h('div', { class: 'events' }, record.events.map(function (e) {
      return e.type === 'judge-call' ? h('div', { class: 'event judge-ref' }, h('b', {}, 'judge-call'), ' ' + e.judge + ' → ' + e.verdict + ' (exchange shown above)') : eventCard(e, needles);
    })));
}
function renderSample(run, id) {
  var box = h('div', {}, 'Loading…');
  source.record(run, id).then(function (record) { box.replaceChildren(sampleView(run, record)); })
    .catch(function (error) { box.replaceChildren(h('p', { class: 'error' }, String(error))); });
  return [section('Sample ' + id, box)];
}
`;
