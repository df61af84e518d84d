import { PlanValidationError } from '../spec/errors.js';

/**
 * Expands `--grid role=spec1,spec2` into `role=spec1`, `role=spec2`. A comma-separated part that
 * starts with `http://` or `https://` continues the previous spec's base-URL list.
 */
export function expandGrid(text: string): string[] {
  const equals = text.indexOf('=');
  const key = text.slice(0, Math.max(equals, 0)).trim();
  const specs: string[] = [];
  for (const part of (equals <= 0 ? '' : text.slice(equals + 1)).split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    if (/^https?:\/\//.test(trimmed) && specs.length > 0) specs[specs.length - 1] += `,${trimmed}`;
    else specs.push(trimmed);
  }
  if (specs.length === 0) {
    throw new PlanValidationError(
      `--grid expects role=spec1,spec2, got '${text}' (for example --grid agent-a=openai:gpt-5.1)`,
    );
  }
  return specs.map((spec) => `${key}=${spec}`);
}
