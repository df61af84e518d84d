import { PlanValidationError } from '../spec/errors.js';

/**
 * Parses a `key=value` flag value. The value is read as JSON when it is a number, boolean,
 * null, array or object literal, and kept as a string otherwise (so `tier=2a` stays `'2a'`).
 */
export function parseAssignment({ text, flag }: { text: string; flag: string }): { key: string; value: unknown } {
  const equals = text.indexOf('=');
  if (equals <= 0) {
    throw new PlanValidationError(`${flag} expects key=value, got '${text}' (for example ${flag} tier=3)`);
  }
  return { key: text.slice(0, equals).trim(), value: parseScalar(text.slice(equals + 1).trim()) };
}

/** Reads a flag value as a number, boolean, null or JSON collection when it is one, else as text. */
export function parseScalar(raw: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw === 'null') return null;
  if (/^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/**
 * Parses repeated `--model-setting role.key=value` flags into one record keyed `role.key` (a later
 * flag for the same key wins), so two sources can be merged key by key before nesting.
 */
export function parseModelSettingAssignments(texts: readonly string[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const text of texts) {
    const { key, value } = parseAssignment({ text, flag: '--model-setting' });
    const dot = key.indexOf('.');
    if (dot <= 0 || dot === key.length - 1) {
      throw new PlanValidationError(
        `--model-setting expects role.key=value, got '${text}' (for example --model-setting agent.temperature=0)`,
      );
    }
    settings[key] = value;
  }
  return settings;
}

/** Nests `role.key` settings (see {@link parseModelSettingAssignments}) into per-role settings. */
export function nestModelSettings(flat: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(flat)) {
    const dot = key.indexOf('.');
    const role = key.slice(0, dot);
    settings[role] = { ...settings[role], [key.slice(dot + 1)]: value };
  }
  return settings;
}

/** Parses repeated `--model-setting role.key=value` flags into per-role settings. */
export function parseModelSettings(texts: readonly string[]): Record<string, Record<string, unknown>> {
  return nestModelSettings(parseModelSettingAssignments(texts));
}

/** Parses a positive integer flag, with a message that names the flag. */
export function parsePositiveInteger({ text, flag }: { text: string; flag: string }): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new PlanValidationError(`${flag} expects a positive whole number, got '${text}'`);
  }
  return value;
}

/** A flag's seconds as whole milliseconds (at least 1 ms for a positive value). */
export function secondsToMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  return seconds > 0 ? Math.max(1, Math.round(seconds * 1000)) : 0;
}

/** Parses a positive number flag (timeouts in seconds), with a message that names the flag. */
export function parsePositiveNumber({ text, flag }: { text: string; flag: string }): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new PlanValidationError(`${flag} expects a positive number, got '${text}'`);
  }
  return value;
}

/** Parses a non-negative number flag (budgets, seeds). */
export function parseNonNegativeNumber({ text, flag }: { text: string; flag: string }): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new PlanValidationError(`${flag} expects a non-negative number, got '${text}'`);
  }
  return value;
}
