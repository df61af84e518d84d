import { describe, expect, it } from 'vitest';
import { TOOL_LIMITS, toolLimitViolation } from './tool-limits.js';
import { Workspace } from './workspace.js';

describe('toolLimitViolation', () => {
  const vfs = Workspace.create({ agentIds: ['agent_a'] }).vfs;

  it('lets ordinary calls through', () => {
    expect(toolLimitViolation({ name: 'write_file', input: { path: 'a.md', content: 'x' }, vfs })).toBeUndefined();
    expect(toolLimitViolation({ name: 'search_files', input: { path: '.', pattern: '**/*.md' }, vfs })).toBeUndefined();
  });

  it('refuses long paths and names, long or many patterns, and oversized content, saying which limit', () => {
    expect(toolLimitViolation({ name: 'read_file', input: { path: `/${'a/'.repeat(2100)}` }, vfs })).toBe(
      'Path is 4201 characters long; the limit is 4096',
    );
    expect(
      toolLimitViolation({ name: 'move_file', input: { source: 'a', destination: 'é'.repeat(128) }, vfs }),
    ).toMatch(/^File name too long \(256 bytes; the limit is 255\)/);
    expect(toolLimitViolation({ name: 'search_files', input: { path: '.', pattern: '*'.repeat(1025) }, vfs })).toBe(
      'Glob pattern is 1025 characters long; the limit is 1024',
    );
    expect(
      toolLimitViolation({
        name: 'search_files',
        input: { path: '.', pattern: '*', excludePatterns: Array(65).fill('x') },
        vfs,
      }),
    ).toBe('Too many exclude patterns; the limit is 64');
    const big = 'x'.repeat(TOOL_LIMITS.maxFileBytes + 1);
    expect(toolLimitViolation({ name: 'write_file', input: { path: 'a', content: big }, vfs })).toBe(
      `File content is ${TOOL_LIMITS.maxFileBytes + 1} bytes; the limit is ${TOOL_LIMITS.maxFileBytes} bytes per file`,
    );
    expect(
      toolLimitViolation({ name: 'write_file', input: { path: 'a', content: '"'.repeat(5 * 1024 * 1024) }, vfs }),
    ).toMatch(/^Tool arguments are \d+ bytes as JSON; the limit is 9437184 bytes$/);
    expect(
      toolLimitViolation({ name: 'edit_file', input: { path: 'a', edits: [{ oldText: 'a', newText: big }] }, vfs }),
    ).toMatch(/per file$/);
  });
});
