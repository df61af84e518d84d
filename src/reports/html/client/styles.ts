/** The app's stylesheet (inlined; no web fonts, no external resources). */
export const STYLES_CSS = `
:root { --fg: #1d2330; --muted: #5d6677; --line: #d8dde6; --accent: #2456a6; --leak: #b3261e; --ok: #1e7a3c; --bg: #fff; --soft: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
nav { display: flex; gap: 14px; align-items: center; padding: 10px 18px; border-bottom: 1px solid var(--line); background: var(--soft); position: sticky; top: 0; }
nav a { color: var(--accent); text-decoration: none; padding: 4px 8px; border-radius: 4px; }
nav a.active { background: var(--accent); color: #fff; }
.brand { font-weight: 600; margin-right: 12px; }
main { padding: 10px 18px 40px; max-width: 1400px; }
section { margin: 18px 0 28px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
h4 { font-size: 13px; margin: 8px 0 2px; color: var(--muted); }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
.muted { color: var(--muted); font-size: 12px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 6px 8px; border-radius: 4px; margin: 2px 0 6px; max-height: 420px; overflow: auto; }
mark.disclosed { background: #ffd2cc; color: #6b0f0a; outline: 1px solid var(--leak); }
.filters { display: flex; flex-wrap: wrap; gap: 10px; margin-bottom: 8px; }
.status.leak, .verdict.fail { color: var(--leak); font-weight: 600; }
.status.ok, .verdict.pass { color: var(--ok); }
.status.bad, .verdict.error, .error { color: #8a4b00; }
.event { border-left: 3px solid var(--line); padding: 4px 10px; margin: 8px 0; }
.event.judge { border-left-color: #8e44ad; }
.event.model { border-left-color: var(--accent); }
.event-head { font-size: 13px; }
.field .key { color: var(--muted); font-size: 12px; }
details > summary { cursor: pointer; color: var(--accent); }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.side { min-width: 0; }
svg.chart { display: block; margin: 8px 0 14px; font-size: 11px; }
.chart-title { font-weight: 600; font-size: 12px; fill: var(--fg); }
.chart-label, .chart-value { fill: var(--muted); }
.bar { fill: var(--accent); opacity: .8; }
.whisker { stroke: var(--fg); stroke-width: 1.5; }
.axis { stroke: var(--muted); }
.point { fill: var(--muted); }
.frontier-point { fill: var(--leak); }
.frontier { fill: none; stroke: var(--leak); stroke-dasharray: 4 3; }
.message-card, .stage, .snapshot { border-left: 3px solid var(--accent); padding: 4px 10px; margin: 8px 0; }
.message-card .text, .stage .text { white-space: pre-wrap; word-break: break-word; }
.sender { color: var(--accent); }
.tag { display: inline-block; font-size: 11px; padding: 0 5px; margin: 0 3px; border: 1px solid var(--line); border-radius: 3px; background: var(--soft); }
.tag.unauthorized, .access.denied { color: var(--leak); border-color: var(--leak); font-weight: 600; }
.access.allowed { color: var(--ok); }
.diff .path { font-family: monospace; color: var(--muted); }
.stage.defense-action { border-left-color: #8e44ad; }
.curve { fill: none; stroke: var(--accent); stroke-width: 2; }
`;
