import { describe, expect, it } from 'vitest';
import { pacSuiteOptionsSchema } from './suite-options.js';

describe('pacSuiteOptionsSchema', () => {
  it('has the spec defaults', () => {
    expect(pacSuiteOptionsSchema.parse({})).toMatchObject({
      split: 'all',
      variant: 'default',
      maxModelCallsPerTurn: 10,
      maxToolCallsPerTurn: 5,
      toolRetries: 2,
      summarizeAtTokens: 30000,
      summaryKeepTokens: 24000,
      tools: 'in-process',
      toolset: 'upstream',
      errors: 'exclude',
      seats: [],
      taskMode: 'messages',
      privacyMode: 'keyword-awareness',
      privacyFreeMode: 'standalone',
    });
    expect(pacSuiteOptionsSchema.parse({}).maxTurns).toBeUndefined();
  });

  it('reads comma lists, the vfs alias and flag strings', () => {
    const parsed = pacSuiteOptionsSchema.parse({ domains: 'Banks, Insurance', tools: 'vfs', split: 'starter' });
    expect(parsed.domains).toEqual(['Banks', 'Insurance']);
    expect(parsed.tools).toBe('in-process');
    expect(pacSuiteOptionsSchema.parse({ tools: 'mcp-server' }).tools).toBe('mcp-server');
  });

  it('rejects unknown variants and splits', () => {
    expect(pacSuiteOptionsSchema.safeParse({ variant: 'chatty' }).success).toBe(false);
    expect(pacSuiteOptionsSchema.safeParse({ split: 'paper' }).success).toBe(false);
  });
});
