import { findToolkit, type ToolkitSpec, type VirtualToolSpec } from './toolkits.js';

/** Trailing newlines and spaces removed, inner newlines indented one tab, one newline appended. */
function indentRest(text: string): string {
  return `${text.replace(/[\n ]+$/, '').replaceAll('\n', '\n\t')}\n`;
}

/** A tool's "medium" detail text: summary, arguments and returns; exceptions are left out at this level. */
function toolText(tool: VirtualToolSpec): string {
  const parameters = tool.parameters.map(
    (parameter) =>
      `\t- ${parameter.name} (${parameter.type}${parameter.required ? '' : ', optional'}): ${parameter.description}`,
  );
  const returns = tool.returns.map((value) => `\t- ${value.name} (${value.type}): ${value.description}`);
  return (
    `${tool.summary.replace(/[., ]+$/, '')}\n` +
    `  Arguments:\n${parameters.join('\n')}\n` +
    `  Returns:\n${returns.join('\n')}\n`
  );
}

/**
 * One toolkit at "medium" detail (privacylens-confaide.md §A3): `<Name>: description`, a
 * `Tool APIs:` line, then one `\t* Tool: …` entry per tool whose continuation lines are
 * indented by a tab.
 */
export function renderToolkit(toolkit: ToolkitSpec): string {
  const entries = toolkit.tools.map((tool) => `\t* ${tool.name}: ${indentRest(toolText(tool))}`);
  return `<${toolkit.name}>: ${toolkit.description}\nTool APIs:\n${entries.join('')}`;
}

/** The rendered toolkit block of a case, the tool names it offers and the toolkits it lacks. */
export type RenderedToolkits = {
  /** The known toolkits, in the case's order, joined by a newline. */
  text: string;
  /** Every tool name of the known toolkits, in order. */
  toolNames: string[];
  /** Toolkits the case names that have no spec (upstream skips them too), e.g. `GoogleFormFiller`. */
  missing: string[];
};

/**
 * Renders the toolkits a case lists, in order, skipping the ones without a spec and reporting
 * them in `missing` so the caller can record a warning.
 */
export function renderToolkits(names: readonly string[]): RenderedToolkits {
  const known: ToolkitSpec[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const toolkit = findToolkit(name);
    if (toolkit === undefined) missing.push(name);
    else known.push(toolkit);
  }
  return {
    text: known.map(renderToolkit).join('\n'),
    toolNames: known.flatMap((toolkit) => toolkit.tools.map((tool) => tool.name)),
    missing,
  };
}
