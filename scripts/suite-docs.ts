import { suiteOptionDocs } from '../src/cli/suite-options-help.js';
import type { Suite } from '../src/suites/suite.js';

/**
 * The generated parts of `docs/suites/<suite>.md`: the option table and the preset table, from the
 * suite's zod schema, flag table and presets (the same data `confidant list options` and
 * `confidant list presets` print). Each part sits between `<!-- generated: <part> -->` and
 * `<!-- /generated: <part> -->`; `npm run docs:suites` rewrites them and a test fails when they are stale.
 */

/** The doc page of a suite, relative to the repository root. */
export function suiteDocPath(suiteId: string): string {
  return `docs/suites/${suiteId}.md`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(text: string): string {
  return `\`${text}\``;
}

/** The options of a suite as a Markdown table: key, flag, type, allowed values, default, meaning. */
export function renderOptionTable(suite: Suite): string {
  const options = suiteOptionDocs(suite);
  if (options.length === 0) return `Suite \`${suite.id}\` has no options.\n`;
  const rows = options.map((option) =>
    [
      code(option.key),
      option.flag === undefined ? '' : code(option.flag),
      cell(option.type),
      option.values === undefined ? '' : option.values.map(code).join(', '),
      option.default !== undefined
        ? option.default === ''
          ? '(empty)'
          : code(cell(option.default))
        : option.required
          ? '**required**'
          : '',
      cell(option.description ?? ''),
    ].join(' | '),
  );
  return [
    '| Option (`--set <key>=…`) | Flag | Type | Values | Default | Meaning |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
  ].join('\n');
}

/** The presets of a suite as a Markdown table (`--preset <id>`), or a sentence when it has none. */
export function renderPresetTable(suite: Suite): string {
  const presets = suite.presets ?? [];
  if (presets.length === 0) return `Suite \`${suite.id}\` has no presets.\n`;
  const rows = presets.map((preset) => {
    const settings = [
      ...Object.entries(preset.options).map(([key, value]) => code(`--set ${key}=${String(value)}`)),
      ...(preset.models ?? []).map((binding) => code(`--model ${binding.role}=${binding.spec}`)),
    ];
    return `| ${code(preset.id)} | ${cell(preset.description)} | ${settings.join(' ')} |`;
  });
  return ['| Preset | What it runs | Same as |', '|---|---|---|', ...rows, ''].join('\n');
}

const PARTS: Record<string, (suite: Suite) => string> = { options: renderOptionTable, presets: renderPresetTable };

/**
 * `markdown` with every generated part rewritten for `suite`. A page must hold the `options` part;
 * a part opened and not closed is an error.
 */
export function updateGeneratedParts({ markdown, suite }: { markdown: string; suite: Suite }): string {
  if (!markdown.includes('<!-- generated: options -->')) {
    throw new Error(`${suiteDocPath(suite.id)} has no '<!-- generated: options -->' part`);
  }
  let result = markdown;
  for (const [part, render] of Object.entries(PARTS)) {
    const open = `<!-- generated: ${part} -->`;
    const close = `<!-- /generated: ${part} -->`;
    const start = result.indexOf(open);
    if (start === -1) continue;
    const end = result.indexOf(close, start);
    if (end === -1) throw new Error(`${suiteDocPath(suite.id)}: '${open}' is never closed by '${close}'`);
    result = `${result.slice(0, start)}${open}\n<!-- npm run docs:suites writes this part from the suite's schema -->\n\n${render(suite)}\n${result.slice(end)}`;
  }
  return result;
}
