import { PromptTemplateError } from './prompt-template-error.js';

/** A slot name: an identifier such as `user_name` or `agentName`. */
export const SLOT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The slot names `text` uses, in first-use order. `{{ name }}` (spaces allowed) is a placeholder;
 * anything between double braces that is not an identifier throws {@link PromptTemplateError}.
 */
export function slotsUsedIn({ text, source }: { text: string; source: string }): string[] {
  const used = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!SLOT_NAME.test(name)) {
      throw new PromptTemplateError(`${source}: '${match[0]}' is not a valid placeholder; use {{slot_name}}`);
    }
    used.add(name);
  }
  return [...used];
}

/**
 * Replaces every `{{slot}}` in `text` in one pass, so slot values (dataset or scenario text) are
 * never scanned for placeholders themselves. A placeholder without a value throws
 * {@link PromptTemplateError} naming `source`; values for slots the text does not use are ignored.
 */
export function fillSlots({
  text,
  slots,
  source,
}: {
  text: string;
  slots: Readonly<Record<string, string>>;
  /** Names the template in the error, e.g. `pac-agent@1`. */
  source: string;
}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (value === undefined) throw new PromptTemplateError(`${source}: no value for the prompt slot ${whole}`);
    return value;
  });
}
