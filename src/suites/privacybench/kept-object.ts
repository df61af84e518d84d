import { z } from 'zod';

/**
 * An object schema that keeps fields it does not know (a converted community keeps its source's
 * ids and notes), yet still catches a misspelt field: an unknown key that differs from a known
 * field only in letter case, or by one inserted, deleted, replaced or swapped character, while
 * that field is absent, is an issue naming the field meant (`canary` → `canaries` is not one edit,
 * so is kept; `sharedAT` → `sharedAt` is reported).
 */
export function keptObject<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape> {
  const known = Object.keys(shape);
  const schema = z.looseObject(shape).superRefine((value, context) => {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const meant = known.find((field) => !(field in value) && isNearMiss(key, field));
      if (meant !== undefined) {
        context.addIssue({ code: 'custom', message: `unknown field '${key}': did you mean '${meant}'?`, path: [key] });
      }
    }
  });
  // The parsed value keeps the unknown fields at run time; its static type names only the known
  // ones, as a plain object schema's does, so code that builds or picks community objects keeps
  // exact types (an index signature would make every `Omit`/`Pick` of them lose their fields).
  return schema as unknown as z.ZodObject<Shape>;
}

/** Same letters ignoring case, or one edit apart (insert, delete, replace, or swap of neighbours). */
function isNearMiss(given: string, field: string): boolean {
  const a = given.toLowerCase();
  const b = field.toLowerCase();
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}
