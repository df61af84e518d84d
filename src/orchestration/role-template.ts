import { z } from 'zod';
import {
  loadPromptTemplate,
  type PromptTemplate,
  parsePromptTemplate,
  promptTemplatePath,
} from '../prompts/prompt-template.js';

/**
 * A versioned role prompt: `<id>.v<version>.md` whose front matter may add a `statement` and a
 * `privacy_statement` to the common keys, and whose body is the role's own instruction (possibly
 * empty). The `statement` is the role statement that ends the role's system line;
 * `privacy_statement` replaces it in privacy-enhanced mode when given. `{{slot}}` placeholders
 * are filled by `render`.
 */
export type RoleTemplate = {
  readonly id: string;
  readonly version: number;
  readonly statement: string | undefined;
  readonly privacyStatement: string | undefined;
  readonly body: string;
  /** SHA-256 (hex) of the whole file text; changes whenever the wording does. */
  readonly sha256: string;
  readonly source: string;
  /**
   * Replaces every `{{slot}}` in `text` in one pass (values are not re-scanned).
   * Throws `PromptTemplateError` for a placeholder with no value; extra values are ignored.
   */
  render(text: string, slots: Readonly<Record<string, string>>): string;
};

const roleMetaSchema = z
  .object({ statement: z.string().optional(), privacy_statement: z.string().optional() })
  .strict();

function toRoleTemplate(parsed: PromptTemplate<z.infer<typeof roleMetaSchema>>): RoleTemplate {
  return Object.freeze({
    id: parsed.id,
    version: parsed.version,
    statement: parsed.meta.statement,
    privacyStatement: parsed.meta.privacy_statement,
    body: parsed.body,
    sha256: parsed.sha256,
    source: parsed.source,
    render: parsed.fill,
  });
}

/** Parses a role template from its text; `source` ending in `.md` must be `<id>.v<version>.md`. */
export function parseRoleTemplate({ text, source }: { text: string; source: string }): RoleTemplate {
  return toRoleTemplate(parsePromptTemplate({ text, source, schema: roleMetaSchema }));
}

/**
 * Reads a role template next to a module: `loadRoleTemplate(import.meta.url, 'prompts/x.v1.md')`.
 * Synchronous so that prompt builders can load their templates at module level; the build's
 * `scripts/copy-assets.mjs` copies the `.md` files next to the compiled modules.
 */
export function loadRoleTemplate(moduleUrl: string, fileName: string): RoleTemplate {
  return toRoleTemplate(loadPromptTemplate({ path: promptTemplatePath(moduleUrl, fileName), schema: roleMetaSchema }));
}
