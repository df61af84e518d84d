import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssueText } from './zod-issue-text.js';

const schema = z.object({
  scenario: z.object({ name: z.string(), agents: z.array(z.object({ role: z.enum(['a', 'b']) })) }),
  count: z.number().optional(),
  mode: z.union([z.literal('x'), z.number()]),
});

function texts(input: unknown): string[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${zodIssueText({ issue, input })}`);
}

describe('zodIssueText', () => {
  it('says a field that was never given is required, with the expected type or values', () => {
    expect(texts({ mode: 'x' })).toEqual(['scenario: required, expected object']);
    expect(texts({ scenario: { agents: [{}] }, mode: 'x' })).toEqual([
      'scenario.name: required, expected string',
      'scenario.agents.0.role: required, one of "a", "b"',
    ]);
    expect(texts({ scenario: { name: 'n', agents: [] } })).toEqual(['mode: required']);
  });

  it("keeps zod's message for a value that was given but is wrong", () => {
    expect(texts({ scenario: { name: 3, agents: [{ role: 'c' }] }, count: 'x', mode: 'x' })).toEqual([
      'scenario.name: Invalid input: expected string, received number',
      'scenario.agents.0.role: Invalid option: expected one of "a"|"b"',
      'count: Invalid input: expected number, received string',
    ]);
  });

  it("keeps zod's message at the root, where the caller names what is missing", () => {
    const parsed = schema.safeParse(undefined);
    expect(parsed.success).toBe(false);
    const [issue] = parsed.error?.issues ?? [];
    expect(issue && zodIssueText({ issue, input: undefined })).toBe(
      'Invalid input: expected object, received undefined',
    );
  });
});
