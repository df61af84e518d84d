import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseFrontMatter } from '../../judges/index.js';

/** A prompt file split into named parts (`<!-- part: name -->` lines), each trimmed, in file order. */
export type PromptTemplate = {
  id: string;
  version: number;
  /** SHA-256 (hex) of the whole file, so records can name the exact wording used. */
  sha256: string;
  parts: ReadonlyArray<{ name: string; text: string }>;
  /** The text of part `name`; throws a RangeError for an unknown part. */
  part(name: string): string;
};

const PART_LINE = /^<!-- part: ([a-z0-9:-]+) -->$/;
const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/**
 * Parses a sectioned prompt template: front matter with `id` and `version`, then parts that each
 * start at a `<!-- part: name -->` line. Text before the first part line must be blank. Throws
 * an Error naming `source` for a malformed file (a packaging fault, not a user's).
 */
export function parsePromptTemplate({ text, source }: { text: string; source: string }): PromptTemplate {
  const { data, body } = parseFrontMatter({ text, source });
  const id = data.id;
  const version = Number(data.version);
  if (typeof id !== 'string' || !Number.isInteger(version) || version < 1) {
    throw new Error(`${source}: the front matter needs 'id' and a positive integer 'version'`);
  }
  const parts: Array<{ name: string; lines: string[] }> = [];
  for (const line of body.split('\n')) {
    const start = PART_LINE.exec(line);
    if (start !== null) {
      const name = start[1] ?? '';
      if (parts.some((part) => part.name === name)) throw new Error(`${source}: part '${name}' appears twice`);
      parts.push({ name, lines: [] });
    } else if (parts.length > 0) {
      parts.at(-1)?.lines.push(line);
    } else if (line.trim() !== '') {
      throw new Error(`${source}: text before the first '<!-- part: name -->' line`);
    }
  }
  const finished = parts.map((part) => ({ name: part.name, text: part.lines.join('\n').trim() }));
  return {
    id,
    version,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    parts: finished,
    part(name) {
      const found = finished.find((part) => part.name === name);
      if (found === undefined) throw new RangeError(`${source}: no part '${name}'`);
      return found.text;
    },
  };
}

/** Reads and parses a template file synchronously (templates load at module level). */
export function loadPromptTemplate(path: string): PromptTemplate {
  return parsePromptTemplate({ text: readFileSync(path, 'utf8'), source: path });
}

/**
 * Replaces every `{{slot}}` in one pass, so slot values (dataset text) are never scanned for
 * placeholders themselves. A placeholder without a value throws a RangeError.
 */
export function fillSlots(text: string, slots: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new RangeError(`no value for the prompt slot ${whole}`);
    return value;
  });
}
