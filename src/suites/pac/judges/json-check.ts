import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { PacJsonCheck } from '../outcome-check-schema.js';
import { readJsonPath } from '../read-json-path.js';
import { checkResult, type DeliverableInput, deliverableJson, type OutcomeCheckResult } from './check-deliverable.js';

/** How many schema problems an explanation lists before "and N more". */
const SHOWN_PROBLEMS = 5;

/**
 * A `json` outcome check: the file is valid JSON (else fail), matches `schema` (zod's reading
 * of the JSON Schema; every mismatch listed with its path), holds every `required` path and the
 * value `equals` gives for each path (deep equality). A missing file follows `ifMissing`; a
 * missing required or compared path is a fail, never not-applicable (the file is there).
 */
export function runJsonCheck({ check, files }: DeliverableInput & { check: PacJsonCheck }): OutcomeCheckResult {
  const read = deliverableJson({ check, file: check.file, files });
  if (!read.ok) return read.result;
  const { path, document } = read;
  const problems: string[] = [];
  if (check.schema !== undefined) {
    const schema = z.fromJSONSchema(check.schema as Parameters<typeof z.fromJSONSchema>[0]);
    const parsed = schema.safeParse(document);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map(
          (issue) => `${issue.path.length === 0 ? '(document)' : issue.path.join('.')}: ${issue.message}`,
        ),
      );
    }
  }
  for (const field of check.required ?? []) {
    const found = readJsonPath({ document, path: field });
    if (!found.found) problems.push(`${field}: missing (no ${found.missing})`);
  }
  for (const [field, expected] of Object.entries(check.equals ?? {})) {
    const found = readJsonPath({ document, path: field });
    if (!found.found) problems.push(`${field}: missing, expected ${JSON.stringify(expected)}`);
    else if (!isDeepStrictEqual(found.value, expected)) {
      problems.push(`${field}: ${JSON.stringify(found.value)}, expected ${JSON.stringify(expected)}`);
    }
  }
  if (problems.length === 0) return checkResult(check, 'pass', `${path} is valid JSON and meets every condition`);
  const shown = problems.slice(0, SHOWN_PROBLEMS).join('; ');
  const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : '';
  return checkResult(check, 'fail', `${path}: ${shown}${more}`);
}
