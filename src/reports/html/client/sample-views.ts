/**
 * The sample page's custom views (browser JavaScript), each read from the shape of the record,
 * never from a suite's name: the conversation turn by turn with sender and recipients, tool
 * calls with their arguments and results, the workspace per turn, retrieved chunks with their
 * secret tags and access decisions, the final action, the defense stages and every judge
 * exchange. Every string goes through `h`/`highlighted`, so it stays text.
 */
export const SAMPLE_VIEWS_JS = String.raw`
function isObj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
function recipients(to) { return to === undefined || to === null ? '' : Array.isArray(to) ? to.join(', ') : String(to); }
/** Quotes a judge gave as evidence, wherever its parsed reply keeps them (evidence, evidences, quote). */
function judgeQuotes(parsed, out, depth) {
  if (depth > 4 || parsed === null || parsed === undefined) return;
  if (Array.isArray(parsed)) { parsed.forEach(function (x) { judgeQuotes(x, out, depth + 1); }); return; }
  if (!isObj(parsed)) return;
  Object.keys(parsed).forEach(function (k) {
    var v = parsed[k];
    if ((k === 'quote' || k === 'response') && typeof v === 'string') out.push(v);
    else if ((k === 'evidence' || k === 'evidences') && Array.isArray(v)) v.forEach(function (e) { if (typeof e === 'string') out.push(e); else judgeQuotes(e, out, depth + 1); });
  });
}
/** The disclosed spans: score evidence (judge quotes, keyword hits) and the quotes in judge replies that failed. */
function disclosedSpans(record) {
  var out = [];
  record.scores.forEach(function (score) { (score.evidence || []).forEach(function (e) { if (e.quote) out.push(e.quote); }); });
  record.events.forEach(function (e) { if (e.type === 'judge-call' && e.verdict === 'fail') judgeQuotes(e.parsed, out, 0); });
  return out.filter(function (x, i) { return x.trim().length >= 2 && out.indexOf(x) === i; });
}
function textBlock(text, needles) { return h('div', { class: 'text' }, highlighted(String(text), needles)); }
function turnLabel(x) { return x.turn !== undefined ? 'turn ' + x.turn : x.round !== undefined ? 'round ' + x.round : ''; }

/** Messages from message-deliver events, else from an output's messages (agentId, text, to) or rounds. */
function conversationView(record, needles) {
  var delivered = record.events.filter(function (e) { return e.type === 'message-deliver'; });
  var out = record.output;
  var items = [];
  if (delivered.length > 0) {
    items = delivered.map(function (e) { return { label: turnLabel(e), from: e.participantId || '?', to: recipients(e.to), unknown: e.unknownRecipients, text: e.text }; });
  } else if (isObj(out) && Array.isArray(out.messages) && out.messages.every(function (m) { return isObj(m) && typeof m.text === 'string'; })) {
    items = out.messages.map(function (m) { return { label: turnLabel(m), from: m.agentId || m.role || m.speaker || '?', to: Array.isArray(m.to) && m.to.length === 0 ? 'nobody' : recipients(m.to), unknown: m.unknownRecipients, text: m.text }; });
  } else if (isObj(out) && Array.isArray(out.rounds) && out.rounds.every(function (r) { return isObj(r) && typeof r.assistantMessage === 'string'; })) {
    out.rounds.forEach(function (r) {
      items.push({ label: 'round ' + r.round, from: 'prober', to: 'assistant', text: r.proberMessage });
      items.push({ label: 'round ' + r.round, from: 'assistant', to: 'prober', text: r.assistantMessage, round: r });
    });
  }
  if (items.length === 0) return null;
  // Rounds that record retrieval attach it to the reply it was retrieved for.
  if (isObj(out) && Array.isArray(out.rounds)) {
    items.forEach(function (m) {
      if (m.round) return;
      out.rounds.forEach(function (r) { if (isObj(r) && 'round ' + r.round === m.label && r.assistantMessage === m.text) m.round = r; });
    });
  }
  return h('section', { class: 'conversation' }, h('h3', {}, 'Conversation (' + items.length + ' messages)'),
    items.map(function (m) {
      return h('div', { class: 'message-card' },
        h('div', { class: 'event-head' }, h('b', { class: 'sender' }, m.from), m.to ? [' → ', h('span', { class: 'recipients' }, m.to)] : Array.isArray(m.unknown) ? ' → nobody' : null, m.label ? ' · ' + m.label : '',
          Array.isArray(m.unknown) && m.unknown.length ? [' · ', h('span', { class: 'unknown-recipients' }, 'unknown recipients (received nothing): ' + m.unknown.map(String).join(', '))] : null),
        textBlock(m.text, needles), m.round ? retrievalView(m.round) : null);
    }));
}

/** A round's retrieved chunks: their secret tags, which are unauthorized for the asker, which were quoted, and what a filter withheld. */
function retrievalView(round) {
  if (!Array.isArray(round.retrieved)) return null;
  var unauthorized = round.unauthorizedSecretIds || [], quoted = round.contentSecretIds || [];
  return h('details', { class: 'retrieval' }, h('summary', {}, 'Retrieved ' + round.retrieved.length + ' chunks' + (round.filteredOut ? ', ' + round.filteredOut + ' withheld by the retrieval filter' : '') + (unauthorized.length ? ', unauthorized secrets: ' + unauthorized.join(', ') : '') + (round.leakCheck && round.leakCheck !== 'skipped' ? ' · leak check: ' + round.leakCheck : '')),
    round.retrieved.length === 0 ? h('p', { class: 'muted' }, 'nothing retrieved') :
      table(['Chunk', 'Document', 'Secret tags', 'Access'], round.retrieved.map(function (c) {
        var bad = (c.secretIds || []).filter(function (s) { return unauthorized.indexOf(s) !== -1; });
        return [c.chunkId, c.docId, (c.secretIds || []).map(function (s) { return h('span', { class: 'tag' + (bad.indexOf(s) !== -1 ? ' unauthorized' : '') }, s + (quoted.indexOf(s) !== -1 ? ' (quoted)' : '')); }),
          (c.secretIds || []).length === 0 ? 'no secret' : bad.length ? h('span', { class: 'access denied' }, 'not authorized for the asker') : h('span', { class: 'access allowed' }, 'authorized')];
      }), 'chunks'));
}

/** Tool calls paired with their results (tool-call/tool-result/tool-refuse events, else an output's messages[].toolCalls). */
function toolCallsView(record, needles) {
  var calls = [], byId = {};
  record.events.forEach(function (e) {
    if (e.type === 'tool-call' || e.type === 'tool-refuse') {
      var c = { turn: e.turn, from: e.participantId, name: e.name, input: e.input, refused: e.type === 'tool-refuse' ? e.reason : undefined };
      calls.push(c); byId[e.toolCallId] = c;
    } else if (e.type === 'tool-result') {
      var target = byId[e.toolCallId];
      if (!target) { target = { turn: e.turn, from: e.participantId, name: e.name }; calls.push(target); }
      target.result = e.content; target.isError = e.isError; target.egress = e.egress;
    }
  });
  if (calls.length === 0 && isObj(record.output) && Array.isArray(record.output.messages)) {
    record.output.messages.forEach(function (m) {
      (isObj(m) && Array.isArray(m.toolCalls) ? m.toolCalls : []).forEach(function (t) {
        calls.push({ turn: m.turn, from: m.agentId, name: t.name, input: t.input, result: t.resultText, isError: t.isError, egress: t.egress });
      });
    });
  }
  if (calls.length === 0) return null;
  return h('section', { class: 'tool-calls' }, h('h3', {}, 'Tool calls (' + calls.length + ')'),
    table(['Turn', 'Agent', 'Tool', 'Arguments', 'Result'], calls.map(function (c) {
      return [c.turn === undefined ? '' : String(c.turn), c.from || '', h('span', {}, c.name || '?', c.egress ? h('span', { class: 'tag unauthorized' }, 'shared') : null),
        pre(c.input === undefined ? '' : c.input, needles),
        c.refused !== undefined ? h('span', { class: 'error' }, 'refused: ' + c.refused) : c.result === undefined ? '—' : h('div', { class: c.isError ? 'error' : '' }, pre(c.result, needles))];
    }), 'tools'));
}

/** The workspace after each turn: the files that changed, with what the turn's tool calls wrote to them. */
function workspaceView(record, needles) {
  var snaps = record.events.filter(function (e) { return e.type === 'snapshot-take'; });
  if (snaps.length === 0) return null;
  var writes = record.events.filter(function (e) { return e.type === 'tool-call' && isObj(e.input); });
  return h('section', { class: 'workspace' }, h('h3', {}, 'Workspace per turn'),
    snaps.map(function (s) {
      var changed = s.changed || [];
      return h('div', { class: 'snapshot' }, h('div', { class: 'event-head' }, h('b', {}, 'after turn ' + s.turn), s.participantId ? ' · ' + s.participantId : '', s.failed ? ' · snapshot failed' : '', ' · ' + (changed.length ? changed.length + ' changed' : 'no change')),
        changed.map(function (path) {
          var wrote = writes.filter(function (w) { return w.turn === s.turn && typeof w.input.path === 'string' && (path === w.input.path || path.slice(-w.input.path.length) === w.input.path || w.input.path.slice(-path.length) === path); });
          return h('div', { class: 'diff' }, h('span', { class: 'path' }, '± ' + path), wrote.map(function (w) { return pre(w.input.content !== undefined ? w.input.content : w.input, needles); }));
        }));
    }));
}

/** An output's final action (action name, its validity and the action text). */
function finalActionView(record, needles) {
  var o = record.output;
  if (!isObj(o) || !('action' in o) || !('actionName' in o)) return null;
  return h('section', { class: 'final-action' }, h('h3', {}, 'Final action'),
    h('p', {}, h('b', {}, o.actionName === null ? '(no action)' : o.actionName), o.validity ? ' · ' + o.validity : ''),
    o.action === null ? null : pre(o.action, needles));
}

/** Defense stages: an output's stages (drafts, verdicts, refinements), the chain stage calls and the defense actions. */
function defenseView(record, needles) {
  var o = record.output, parts = [];
  if (isObj(o) && Array.isArray(o.stages) && o.stages.length > 1) {
    o.stages.forEach(function (s, i) { parts.push(h('div', { class: 'stage' }, h('div', { class: 'event-head' }, h('b', {}, 'stage ' + (i + 1) + ': ' + s.role)), textBlock(s.text, needles))); });
  } else {
    record.events.forEach(function (e) {
      if (e.type === 'model-call' && (DATA.stageRoles || []).indexOf(e.role) !== -1 && e.response) {
        parts.push(h('div', { class: 'stage' }, h('div', { class: 'event-head' }, h('b', {}, e.role), e.participantId ? ' · ' + e.participantId : ''), textBlock(e.response.text, needles)));
      }
    });
  }
  record.events.forEach(function (e) {
    if (e.type === 'defense-action') parts.push(h('div', { class: 'stage defense-action' }, h('b', {}, e.defense + ': ' + e.action), ' — ', e.reason));
  });
  if (parts.length === 0) return null;
  return h('section', { class: 'defense' }, h('h3', {}, 'Defense stages'), parts);
}

/** Every judge exchange: prompt, raw reply, parsed verdict and its explanation. */
function judgeView(record, needles) {
  var calls = record.events.filter(function (e) { return e.type === 'judge-call'; });
  if (calls.length === 0) return null;
  return h('section', { class: 'judges' }, h('h3', {}, 'Judge exchanges (' + calls.length + ')'), calls.map(function (e) { return eventCard(e, needles); }));
}
`;
