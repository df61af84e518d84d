import type { z } from 'zod';

/**
 * How one zod issue reads for a user. A field that was never given says so: `required, expected
 * object`, or `required, one of "a", "b"` for an enum, instead of zod's "Invalid input: expected
 * object, received undefined", which blames a value the user never wrote. Every other issue keeps
 * zod's own message. `input` is the value that was parsed; the issue's path is followed in it to
 * tell a missing field from a wrong one. An issue at the root keeps zod's message (the caller
 * names what the root is).
 */
export function zodIssueText({ issue, input }: { issue: z.core.$ZodIssue; input: unknown }): string {
  if (issue.path.length === 0 || !isMissing({ input, path: issue.path })) return issue.message;
  if (issue.code === 'invalid_type') return `required, expected ${issue.expected}`;
  if (issue.code === 'invalid_value') {
    return `required, one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if (issue.code === 'invalid_union') return 'required';
  return issue.message;
}

/** Whether following `path` in `input` ends at (or passes through) a value that is absent. */
function isMissing({ input, path }: { input: unknown; path: readonly PropertyKey[] }): boolean {
  let value = input;
  for (const key of path) {
    if (value === undefined || value === null || typeof value !== 'object') return value === undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}
