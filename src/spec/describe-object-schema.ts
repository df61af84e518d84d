import { type ZodType, z } from 'zod';

/** One key of an object schema, in words a reader (or `--help`) can print. */
export type SchemaFieldDoc = {
  key: string;
  /** `string`, `positive integer`, `list of string (comma-separated)`, `boolean`, … */
  type: string;
  /** The allowed values of an enum (or of a list's items, or `true`/`false`). */
  values?: string[];
  /** The default as one would type it (`leak,persona,canary`), when the schema has one. */
  default?: string;
  /** The field must be given (no default, not optional). */
  required: boolean;
  /** The schema's `.describe()` / `.meta({ description })` text, when there is one. */
  description?: string;
};

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  description?: string;
  default?: unknown;
};

const SAFE_LIMIT = Number.MAX_SAFE_INTEGER;

function numberType(json: JsonSchema, word: string): string {
  const min = json.exclusiveMinimum !== undefined ? json.exclusiveMinimum + (word === 'integer' ? 1 : 0) : json.minimum;
  const max = json.maximum !== undefined && Math.abs(json.maximum) < SAFE_LIMIT ? json.maximum : undefined;
  const low = min !== undefined && Math.abs(min) < SAFE_LIMIT ? min : undefined;
  if (low !== undefined && max !== undefined) return `${word} ${low}–${max}`;
  if (word === 'integer' && low === 1 && json.exclusiveMinimum !== undefined) return 'positive integer';
  if (low !== undefined) return `${word} ≥ ${low}`;
  if (max !== undefined) return `${word} ≤ ${max}`;
  return word;
}

function typeOf(json: JsonSchema): { type: string; values?: string[] } {
  if (json.enum !== undefined)
    return { type: typeof json.enum[0] === 'number' ? 'number' : 'string', values: json.enum.map(String) };
  const type = Array.isArray(json.type) ? json.type.join(' | ') : json.type;
  if (type === 'array') {
    const item = typeOf(json.items ?? {});
    return {
      type: `list of ${item.type} (comma-separated)`,
      ...(item.values === undefined ? {} : { values: item.values }),
    };
  }
  if (type === 'integer' || type === 'number') return { type: numberType(json, type) };
  if (type === 'boolean') return { type: 'boolean', values: ['true', 'false'] };
  return { type: type ?? 'any' };
}

/** The default a schema applies, looking through optional, preprocess and transform wrappers. */
function defaultOf(schema: ZodType): unknown {
  if (schema instanceof z.ZodDefault) return schema.def.defaultValue;
  if (schema instanceof z.ZodPipe) return defaultOf(schema.in as ZodType) ?? defaultOf(schema.out as ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return defaultOf(schema.unwrap() as ZodType);
  return undefined;
}

function accepts(schema: ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

function defaultText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * Describes every key of an object schema (after unwrapping refinements and transforms of the
 * object itself) from the schema alone: type, allowed values, default and description. Used for
 * `confidant list options` and per-suite `--help`, so their text cannot drift from the code.
 * Returns `[]` for a schema that is not an object.
 */
export function describeObjectSchema(schema: ZodType): SchemaFieldDoc[] {
  let object: ZodType = schema;
  while (object instanceof z.ZodPipe) object = object.in as ZodType;
  if (!(object instanceof z.ZodObject)) return [];
  const shape = object.shape as Record<string, ZodType>;
  return Object.entries(shape).map(([key, field]) => {
    const json = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const fallback = defaultText(defaultOf(field) ?? json.default);
    const description = json.description ?? field.description;
    return {
      key,
      ...typeOf(json),
      ...(fallback === undefined ? {} : { default: fallback }),
      required: fallback === undefined && !accepts(field, undefined),
      ...(description === undefined ? {} : { description }),
    };
  });
}
