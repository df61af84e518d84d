import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfidantError, DatasetFormatError, DatasetNotFoundError } from '../../spec/errors.js';
import { buildStarterCommunity } from './build-starter-community.js';
import { formatCommunityIssue } from './community-issue.js';
import { CommunityValidationError, loadCommunity, validateCommunityFiles } from './load-community.js';
import { STARTER_COMMUNITY_DIR } from './starter-community.js';
import { renderCommunityFiles } from './write-community.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function communityDir({ communityText, documentsText }: { communityText: string; documentsText: string }) {
  const dir = await mkdtemp(join(tmpdir(), 'privacybench-community-'));
  dirs.push(dir);
  await writeFile(join(dir, 'community.json'), communityText);
  await writeFile(join(dir, 'documents.jsonl'), documentsText);
  return dir;
}

/** The starter's files with the given document lines (1-based) replaced. */
function starterFiles(replace: Record<number, string> = {}) {
  const files = renderCommunityFiles(buildStarterCommunity());
  const lines = files.documentsText.split('\n');
  for (const [line, text] of Object.entries(replace)) lines[Number(line) - 1] = text;
  return { communityText: files.communityText, documentsText: lines.join('\n') };
}

describe('loadCommunity', () => {
  it('loads the committed starter community', async () => {
    const loaded = await loadCommunity({ dir: STARTER_COMMUNITY_DIR });
    expect(loaded.community.communityId).toBe('starter');
    expect(loaded.documents).toHaveLength(buildStarterCommunity().documents.length);
    expect(loaded.dir).toBe(STARTER_COMMUNITY_DIR);
  });

  it('throws DatasetNotFoundError for a directory without community files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'privacybench-empty-'));
    dirs.push(dir);
    const error = await loadCommunity({ dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatasetNotFoundError);
    expect(String(error)).toContain(`no PrivacyBench community in ${dir}: cannot read community.json`);
  });

  it('lists every problem of a broken community in one user error', async () => {
    const original = renderCommunityFiles(buildStarterCommunity()).documentsText.split('\n');
    const chat = JSON.parse(original[85] ?? '{}') as Record<string, unknown>;
    const dir = await communityDir(
      starterFiles({
        3: '{"docId": "oops", ',
        5: JSON.stringify({ ...JSON.parse(original[4] ?? '{}'), secretIds: ['maya-debt'] }),
        86: JSON.stringify({ ...chat, participants: ['daniel', 'u9'] }),
      }),
    );
    const error = await loadCommunity({ dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommunityValidationError);
    expect(error).toBeInstanceOf(DatasetFormatError);
    expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    if (!(error instanceof CommunityValidationError)) throw new Error('unreachable');
    const listed = error.issues.map(formatCommunityIssue);
    expect(listed[0]).toMatch(/^documents\.jsonl:3: not valid JSON \(/);
    expect(listed.slice(1)).toEqual([
      'documents.jsonl:5 (blog-0001): secretIds: a blog post is public and never carries secret tags',
      "documents.jsonl:86 (chat-0042): participants[1]: user 'u9' does not exist",
      "documents.jsonl:86 (chat-0042): messages[1].speakerId: speaker 'maya' is not a participant",
    ]);
    expect(error.message).toContain(`the PrivacyBench community in ${dir} has 4 problems:`);
    for (const line of listed) expect(error.message).toContain(`  ${line}`);
  });
});

describe('validateCommunityFiles', () => {
  it('reports schema problems of community.json with their paths', () => {
    const { communityText, documentsText } = starterFiles();
    const community = JSON.parse(communityText) as {
      users: Array<{ attributes: { age: Array<{ validFrom: string }> } }>;
    };
    const age = community.users[0]?.attributes.age[0];
    if (age === undefined) throw new Error('no age');
    age.validFrom = '2023-02-30';
    const result = validateCommunityFiles({ communityText: JSON.stringify(community), documentsText });
    expect(result.community).toBeNull();
    expect(result.issues.map(formatCommunityIssue)).toEqual([
      'community.json: users[0].attributes.age[0].validFrom: Invalid ISO date',
    ]);
    expect(result.documents).toHaveLength(buildStarterCommunity().documents.length);
  });

  it('does not report references to a document that failed its schema as dangling', () => {
    const built = buildStarterCommunity();
    const files = renderCommunityFiles(built);
    const lines = files.documentsText.split('\n');
    const index = built.documents.findIndex((doc) => doc.docId === 'ai-0038');
    const broken = { ...JSON.parse(lines[index] ?? '{}'), ownerId: 7 };
    lines[index] = JSON.stringify(broken);
    const result = validateCommunityFiles({ communityText: files.communityText, documentsText: lines.join('\n') });
    expect(result.issues.map(formatCommunityIssue)).toEqual([
      `documents.jsonl:${index + 1} (ai-0038): ownerId: Invalid input: expected string, received number`,
    ]);
  });

  it('skips blank lines and reports a file that is not JSON', () => {
    const { documentsText } = starterFiles();
    const result = validateCommunityFiles({ communityText: '{', documentsText: `\n${documentsText}\n\n` });
    expect(result.community).toBeNull();
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ rule: 'syntax', file: 'community.json', path: '' });
  });
});
