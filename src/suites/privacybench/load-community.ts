import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetFormatError, DatasetNotFoundError } from '../../spec/errors.js';
import { zodIssueText } from '../../spec/zod-issue-text.js';
import { checkCommunity } from './check-community.js';
import { type CommunityIssue, formatCommunityIssue, formatPath } from './community-issue.js';
import {
  COMMUNITY_FILES,
  type Community,
  type CommunityDocument,
  communitySchema,
  documentSchema,
} from './community-schema.js';

/** A community that passed every check, with its documents in file order. */
export type LoadedCommunity = {
  /** The directory it was read from. */
  dir: string;
  community: Community;
  documents: CommunityDocument[];
};

/** What parsing and checking two community files found. `community` is null when `community.json` is unusable. */
export type CommunityValidation = {
  community: Community | null;
  /** The documents that passed their schema, in file order. */
  documents: CommunityDocument[];
  /** Every problem, schema and rule checks alike; empty when the community is sound. */
  issues: CommunityIssue[];
};

/**
 * A community directory with problems. The message lists every issue, one per line, and
 * `issues` carries them structured. It is a `DatasetFormatError` (a user error, CLI exit 2).
 */
export class CommunityValidationError extends DatasetFormatError {
  readonly issues: readonly CommunityIssue[];

  constructor({ dir, issues }: { dir: string; issues: readonly CommunityIssue[] }) {
    super(
      `the PrivacyBench community in ${dir} has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n` +
        issues.map((issue) => `  ${formatCommunityIssue(issue)}`).join('\n') +
        '\nfix these files, or regenerate the community with `confidant generate privacybench`',
    );
    this.issues = issues;
  }
}

/**
 * Parses the text of `community.json` and `documents.jsonl` and runs every check: JSON syntax,
 * the zod schemas (each issue with its path) and then, on what parsed, the rule checks of
 * {@link checkCommunity}. Blank lines in `documents.jsonl` are skipped. Never throws on bad data.
 */
export function validateCommunityFiles({
  communityText,
  documentsText,
}: {
  communityText: string;
  documentsText: string;
}): CommunityValidation {
  const issues: CommunityIssue[] = [];
  let community: Community | null = null;
  const communityJson = parseJson(communityText);
  if (!communityJson.ok) {
    issues.push({
      rule: 'syntax',
      file: 'community.json',
      path: '',
      message: `not valid JSON (${communityJson.reason})`,
    });
  } else {
    const parsed = communitySchema.safeParse(communityJson.value);
    if (parsed.success) community = parsed.data;
    else {
      for (const issue of parsed.error.issues) {
        issues.push({
          rule: 'schema',
          file: 'community.json',
          path: formatPath(issue.path),
          message: zodIssueText({ issue, input: communityJson.value }),
        });
      }
    }
  }

  const documents: CommunityDocument[] = [];
  const lines: number[] = [];
  const invalidDocIds = new Set<string>();
  documentsText.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === '') return;
    const json = parseJson(text);
    if (!json.ok) {
      issues.push({
        rule: 'syntax',
        file: 'documents.jsonl',
        line,
        path: '',
        message: `not valid JSON (${json.reason})`,
      });
      return;
    }
    const parsed = documentSchema.safeParse(json.value);
    if (parsed.success) {
      documents.push(parsed.data);
      lines.push(line);
      return;
    }
    const docId = rawDocId(json.value);
    if (docId !== undefined) invalidDocIds.add(docId);
    for (const issue of parsed.error.issues) {
      issues.push({
        rule: 'schema',
        file: 'documents.jsonl',
        line,
        ...(docId === undefined ? {} : { docId }),
        path: formatPath(issue.path),
        message: zodIssueText({ issue, input: json.value }),
      });
    }
  });

  if (community !== null) issues.push(...checkCommunity({ community, documents, lines, invalidDocIds }));
  return { community, documents, issues };
}

/**
 * Loads and validates the community in `dir` (`community.json` + `documents.jsonl`).
 * A missing file is a `DatasetNotFoundError`; any problem at all is a
 * {@link CommunityValidationError} listing every issue with its file, line and path.
 */
export async function loadCommunity({ dir }: { dir: string }): Promise<LoadedCommunity> {
  const read = async (name: string): Promise<string> => {
    try {
      return await readFile(join(dir, name), 'utf8');
    } catch (error) {
      throw new DatasetNotFoundError(
        `no PrivacyBench community in ${dir}: cannot read ${name}; a community directory holds ${COMMUNITY_FILES.community} and ${COMMUNITY_FILES.documents} (build one with \`confidant generate privacybench\`)`,
        { cause: error },
      );
    }
  };
  const communityText = await read(COMMUNITY_FILES.community);
  const documentsText = await read(COMMUNITY_FILES.documents);
  const { community, documents, issues } = validateCommunityFiles({ communityText, documentsText });
  if (issues.length > 0 || community === null) throw new CommunityValidationError({ dir, issues });
  return { dir, community, documents };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function rawDocId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const docId: unknown = Reflect.get(value, 'docId');
  return typeof docId === 'string' && docId !== '' ? docId : undefined;
}
