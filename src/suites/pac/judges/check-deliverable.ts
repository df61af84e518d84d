import type { PacOutcomeCheck } from '../outcome-check-schema.js';
import type { PacOutput } from '../pac-output.js';
import type { ArtifactFile } from './artifact-files.js';

/** The verdict of one outcome check: explicit, never a silent pass. */
export type OutcomeCheckVerdict = 'pass' | 'fail' | 'error' | 'not-applicable';

/** What one outcome check concluded about the final deliverable. */
export type OutcomeCheckResult = {
  id: string;
  kind: PacOutcomeCheck['kind'];
  verdict: OutcomeCheckVerdict;
  /** Why, in a sentence a person can act on. */
  explanation: string;
  /** A `number` check: the value it read. */
  value?: number;
};

/** What an outcome check reads: the files of the final shared folder and the transcript. */
export type DeliverableInput = {
  files: readonly ArtifactFile[];
  messages: PacOutput['messages'];
};

const SHARED = 'shared/';

/** The workspace path of a check's `file` (`schedule.json` → `shared/schedule.json`). */
export function sharedPath(file: string): string {
  const trimmed = file.replace(/^\.\//, '');
  return trimmed.startsWith(SHARED) ? trimmed : `${SHARED}${trimmed}`;
}

/** A result for `check`. */
export function checkResult(
  check: PacOutcomeCheck,
  verdict: OutcomeCheckVerdict,
  explanation: string,
  value?: number,
): OutcomeCheckResult {
  const why = check.description === undefined ? explanation : `${check.description}: ${explanation}`;
  return { id: check.id, kind: check.kind, verdict, explanation: why, ...(value === undefined ? {} : { value }) };
}

/** The result for a missing deliverable, by the check's `ifMissing`. */
export function missingResult(check: PacOutcomeCheck, explanation: string): OutcomeCheckResult {
  return check.ifMissing === 'not-applicable'
    ? checkResult(check, 'not-applicable', `${explanation} (ifMissing: not-applicable)`)
    : checkResult(check, 'fail', explanation);
}

/** Which file of the final shared folder a check reads. */
export type DeliverableFile = { check: PacOutcomeCheck; file: string; files: readonly ArtifactFile[] };

/**
 * The text of the check's file in the final shared folder, or the result that ends the check: a
 * missing file by `ifMissing`, a file whose content cannot be recovered from the output `error`.
 */
export function deliverableText({
  check,
  file,
  files,
}: DeliverableFile): { ok: true; path: string; text: string } | { ok: false; result: OutcomeCheckResult } {
  const path = sharedPath(file);
  const found = files.find((candidate) => candidate.path === path);
  if (found === undefined) {
    const present = files.map((candidate) => candidate.path);
    return {
      ok: false,
      result: missingResult(
        check,
        `${path} is not in the final shared folder (${present.length === 0 ? 'the folder is empty' : `it holds ${present.join(', ')}`})`,
      ),
    };
  }
  if (found.content === null) {
    return {
      ok: false,
      result: checkResult(check, 'error', `the content of ${path} could not be recovered from the recorded output`),
    };
  }
  return { ok: true, path, text: found.content };
}

/** The check's file parsed as JSON, or the result that ends the check (missing, unreadable, or not JSON: fail). */
export function deliverableJson({
  check,
  file,
  files,
}: DeliverableFile): { ok: true; path: string; document: unknown } | { ok: false; result: OutcomeCheckResult } {
  const text = deliverableText({ check, file, files });
  if (!text.ok) return text;
  try {
    return { ok: true, path: text.path, document: JSON.parse(text.text) };
  } catch (cause) {
    return {
      ok: false,
      result: checkResult(check, 'fail', `${text.path} is not valid JSON (${(cause as Error).message})`),
    };
  }
}
