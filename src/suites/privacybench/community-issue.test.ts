import { describe, expect, it } from 'vitest';
import { formatCommunityIssue, formatPath } from './community-issue.js';

describe('formatCommunityIssue', () => {
  it('names the file, line, document and path', () => {
    expect(
      formatCommunityIssue({
        rule: 'unknown-reference',
        file: 'documents.jsonl',
        line: 42,
        docId: 'chat-0042',
        path: 'participants[1]',
        message: "user 'u9' does not exist",
      }),
    ).toBe("documents.jsonl:42 (chat-0042): participants[1]: user 'u9' does not exist");
    expect(formatCommunityIssue({ rule: 'syntax', file: 'community.json', path: '', message: 'not valid JSON' })).toBe(
      'community.json: not valid JSON',
    );
  });
});

describe('formatPath', () => {
  it('renders zod paths with brackets for indexes', () => {
    expect(formatPath(['secrets', 3, 'sharingEvents', 0, 'docIds', 1])).toBe('secrets[3].sharingEvents[0].docIds[1]');
    expect(formatPath([])).toBe('');
    expect(formatPath([0, 'x'])).toBe('[0].x');
  });
});
