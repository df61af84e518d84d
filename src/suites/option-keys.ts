import { type ZodType, z } from 'zod';

/**
 * The option keys a suite's options schema declares: the keys of its object, looking through
 * pipes (`.transform`), defaults and optionals. `null` when the schema is not an object at heart,
 * so no key can be named.
 */
export function suiteOptionKeys(schema: ZodType): string[] | null {
  let current: unknown = schema;
  for (let depth = 0; depth < 8; depth += 1) {
    if (current instanceof z.ZodObject) return Object.keys(current.shape);
    if (current instanceof z.ZodPipe) current = current.in;
    else if (current instanceof z.ZodDefault || current instanceof z.ZodOptional) current = current.unwrap();
    else return null;
  }
  return null;
}
