import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A parameter type as the tool specifications name it. */
export type ToolParameterType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/**
 * A spec-only tool: rendered into the agent prompt, never executed (privacylens-confaide.md §A3).
 * Names, parameter names, types, required flags, return names and exception names are facts
 * transcribed from upstream; every description is our own wording.
 */
export type VirtualToolSpec = {
  /** Toolkit prefix + method, e.g. `GmailSendEmail`. */
  name: string;
  summary: string;
  parameters: Array<{ name: string; type: ToolParameterType; description: string; required: boolean }>;
  returns: Array<{ name: string; type: string; description: string }>;
  exceptions: Array<{ name: 'NotFoundException' | 'InvalidRequestException'; description: string }>;
};

/** A toolkit: one service and its tools. */
export type ToolkitSpec = { name: string; description: string; tools: VirtualToolSpec[] };

const toolSchema = z
  .object({
    name: z.string().min(1),
    summary: z.string().min(1),
    parameters: z.array(
      z
        .object({
          name: z.string().min(1),
          type: z.enum(['string', 'integer', 'number', 'boolean', 'array', 'object']),
          description: z.string().min(1),
          required: z.boolean(),
        })
        .strict(),
    ),
    returns: z.array(z.object({ name: z.string().min(1), type: z.string().min(1), description: z.string() }).strict()),
    exceptions: z.array(
      z.object({ name: z.enum(['NotFoundException', 'InvalidRequestException']), description: z.string() }).strict(),
    ),
  })
  .strict();

/** `toolkits.json`: the toolkit tables, data beside this file, validated when loaded. */
export const toolkitFileSchema = z
  .object({
    description: z.string(),
    toolkits: z.array(
      z
        .object({ name: z.string().min(1), description: z.string().min(1), tools: z.array(toolSchema).min(1) })
        .strict()
        .refine((toolkit) => toolkit.tools.every((tool) => tool.name.startsWith(toolkit.name)), {
          message: "every tool's name starts with its toolkit's name",
        }),
    ),
  })
  .strict();

/** Reads and validates `toolkits.json`; each toolkit keyed by its name, in file order. */
export function loadToolkits(url: URL = new URL('./toolkits.json', import.meta.url)): Record<string, ToolkitSpec> {
  const { toolkits } = toolkitFileSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
  return Object.fromEntries(toolkits.map((toolkit) => [toolkit.name, toolkit]));
}

/** The 7 toolkits (30 tools) PrivacyLens prompts can show, by name. */
export const TOOLKITS: Readonly<Record<string, ToolkitSpec>> = Object.freeze(loadToolkits());

/** The toolkit spec of `name`, or undefined for toolkits upstream never specified (`GoogleFormFiller`). */
export function findToolkit(name: string): ToolkitSpec | undefined {
  return Object.hasOwn(TOOLKITS, name) ? TOOLKITS[name] : undefined;
}
