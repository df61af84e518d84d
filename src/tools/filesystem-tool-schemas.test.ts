import { describe, expect, it } from 'vitest';
import {
  FILESYSTEM_TOOL_DESCRIPTIONS,
  FILESYSTEM_TOOL_NAMES,
  FILESYSTEM_TOOLSETS,
  filesystemCallKind,
  filesystemToolInputSchemas,
} from './filesystem-tool-schemas.js';

describe('filesystem tool surface', () => {
  it('has the 14 tools of the pinned server and the two agent toolsets', () => {
    expect(FILESYSTEM_TOOL_NAMES).toHaveLength(14);
    expect(FILESYSTEM_TOOLSETS.upstream).toEqual([
      'read_text_file',
      'read_multiple_files',
      'write_file',
      'edit_file',
      'create_directory',
      'list_directory',
      'directory_tree',
      'move_file',
      'search_files',
      'list_allowed_directories',
    ]);
    expect(FILESYSTEM_TOOLSETS.paper6).toHaveLength(6);
    for (const name of FILESYSTEM_TOOL_NAMES) expect(FILESYSTEM_TOOL_DESCRIPTIONS[name].length).toBeGreaterThan(20);
  });

  it('applies the server’s defaults and limits when parsing', () => {
    expect(filesystemToolInputSchemas.edit_file.parse({ path: 'p', edits: [] })).toEqual({
      path: 'p',
      edits: [],
      dryRun: false,
    });
    expect(filesystemToolInputSchemas.search_files.parse({ path: 'p', pattern: '*' })).toEqual({
      path: 'p',
      pattern: '*',
      excludePatterns: [],
    });
    expect(filesystemToolInputSchemas.list_directory_with_sizes.parse({ path: 'p' }).sortBy).toBe('name');
    expect(filesystemToolInputSchemas.read_multiple_files.safeParse({ paths: [] }).success).toBe(false);
  });
});

describe('filesystemCallKind', () => {
  const folders = [
    { at: '/tmp/w/agent_a', egress: false },
    { at: '/tmp/w/shared', egress: true },
  ];
  const kind = (name: string, input: unknown) => filesystemCallKind({ name, input, folders });

  it('marks writes that land in an egress folder, whatever the spelling', () => {
    expect(kind('write_file', { path: '/tmp/w/shared/a.md', content: '' })).toBe('egress');
    expect(kind('write_file', { path: '../shared/a.md', content: '' })).toBe('egress');
    expect(kind('write_file', { path: '/tmp/w/agent_a/../shared//a.md', content: '' })).toBe('egress');
    expect(kind('write_file', { path: 'a.md', content: '' })).toBe('write');
    expect(kind('move_file', { source: 'a.md', destination: '/tmp/w/shared/a.md' })).toBe('egress');
    expect(kind('edit_file', { path: '../shared/a.md', edits: [], dryRun: true })).toBe('read');
    expect(kind('create_directory', { path: '/tmp/w/shared/d' })).toBe('egress');
  });

  it('falls back to the declared kind for calls that cannot take effect, and reads stay reads', () => {
    expect(kind('write_file', { path: '/elsewhere/a.md', content: '' })).toBe('write');
    expect(kind('write_file', { content: '' })).toBe('write');
    expect(kind('read_text_file', { path: '/tmp/w/shared/a.md' })).toBe('read');
    expect(kind('no_such_tool', {})).toBe('read');
  });
});
