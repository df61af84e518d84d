import { describe, expect, it } from 'vitest';
import type { Tool, ToolOutput } from '../spec/tool.js';
import { FILESYSTEM_TOOLSETS } from './filesystem-tool-schemas.js';
import { applyTextEdits, createFilesystemTools, formatSize } from './filesystem-tools.js';
import { ToolError } from './tool-error.js';
import { Workspace } from './workspace.js';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

function setup() {
  const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'], now: () => NOW });
  const toolsOf = (agentId: string) => createFilesystemTools({ view: workspace.viewFor(agentId) });
  const byAgent = { agent_a: toolsOf('agent_a'), agent_b: toolsOf('agent_b') };
  const call = async (name: string, input: unknown, agent: keyof typeof byAgent = 'agent_a'): Promise<ToolOutput> => {
    const tool: Tool | undefined = byAgent[agent].find((candidate) => candidate.name === name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    try {
      return await tool.execute({ input: tool.inputSchema.parse(input), context: { participantId: agent } });
    } catch (error) {
      if (ToolError.isInstance(error)) return error.toOutput();
      throw error;
    }
  };
  const kindOf = (name: string, input: unknown) => {
    const tool = byAgent.agent_a.find((candidate) => candidate.name === name)!;
    return tool.kindOf?.(tool.inputSchema.parse(input));
  };
  return { workspace, call, kindOf };
}

describe('filesystem tools over the VFS', () => {
  it('reads heads and tails the way the server does', async () => {
    const { call } = setup();
    await call('write_file', { path: 'a.txt', content: 'a\nb\nc' });
    await call('write_file', { path: 'nl.txt', content: 'a\nb\n' });
    await call('write_file', { path: 'crlf.txt', content: 'x\r\ny\r\n' });
    await call('write_file', { path: 'empty.txt', content: '' });
    const read = async (input: object) => (await call('read_text_file', input)).content;
    expect(await read({ path: 'a.txt', head: 2 })).toBe('a\nb');
    expect(await read({ path: 'a.txt', head: 5 })).toBe('a\nb\nc');
    expect(await read({ path: 'a.txt', head: 1.5 })).toBe('a\nb');
    expect(await read({ path: 'a.txt', head: -1 })).toBe('');
    expect(await read({ path: 'a.txt', tail: 1 })).toBe('c');
    expect(await read({ path: 'nl.txt', tail: 1 })).toBe('');
    expect(await read({ path: 'nl.txt', tail: 2 })).toBe('b\n');
    expect(await read({ path: 'crlf.txt', head: 1 })).toBe('x\r');
    expect(await read({ path: 'crlf.txt', tail: 2 })).toBe('y\n');
    expect(await read({ path: 'empty.txt', tail: 3 })).toBe('');
    expect(await read({ path: 'a.txt', head: 0, tail: 0 })).toBe('a\nb\nc');
    expect(await call('read_text_file', { path: 'none.txt', tail: 1 })).toEqual({
      content: "ENOENT: no such file or directory, stat '/workspace/agent/none.txt'",
      isError: true,
    });
    expect((await call('read_file', { path: 'none.txt', head: 1 })).content).toBe(
      "ENOENT: no such file or directory, open '/workspace/agent/none.txt'",
    );
    expect(await call('read_text_file', { path: '/workspace/shared' })).toEqual({
      content: 'EISDIR: illegal operation on a directory, read',
      isError: true,
    });
  });

  it('edits with exact and whitespace-tolerant matching, in order, and shows a fenced diff', async () => {
    const { call, workspace } = setup();
    await call('write_file', { path: 'code.py', content: 'if a:\n    b = 1\n    c = 2\n' });
    const edit = await call('edit_file', {
      path: 'code.py',
      edits: [
        { oldText: 'b = 1\n  c = 2', newText: 'b = 10\n    c = 20' },
        { oldText: 'b = 10', newText: 'b = 11' },
      ],
    });
    expect(workspace.vfs.get('agents/agent_a/code.py')).toMatchObject({ content: 'if a:\n    b = 11\n      c = 20\n' });
    expect(edit.content).toBe(
      '```diff\nIndex: /workspace/agent/code.py\n' +
        `${'='.repeat(67)}\n--- /workspace/agent/code.py\toriginal\n+++ /workspace/agent/code.py\tmodified\n` +
        '@@ -1,3 +1,3 @@\n if a:\n-    b = 1\n-    c = 2\n+    b = 11\n+      c = 20\n```\n\n',
    );
    expect(await call('edit_file', { path: 'code.py', edits: [{ oldText: 'zzz', newText: 'y' }] })).toEqual({
      content: 'Could not find exact match for edit:\nzzz',
      isError: true,
    });
    expect(workspace.vfs.get('agents/agent_a/code.py')).toMatchObject({ content: 'if a:\n    b = 11\n      c = 20\n' });
  });

  it('leaves the file alone on a dry run, widens the fence around backticks and normalises CRLF on write', async () => {
    const { call, workspace } = setup();
    await call('write_file', { path: 'md.md', content: '```js\nx\n```\r\n' });
    const dry = await call('edit_file', { path: 'md.md', edits: [{ oldText: 'x', newText: 'y' }], dryRun: true });
    expect(dry.content.startsWith('````diff\n')).toBe(true);
    expect(dry.content.endsWith('````\n\n')).toBe(true);
    expect(workspace.vfs.get('agents/agent_a/md.md')).toMatchObject({ content: '```js\nx\n```\r\n' });
    await call('edit_file', { path: 'md.md', edits: [{ oldText: 'x', newText: 'y' }] });
    expect(workspace.vfs.get('agents/agent_a/md.md')).toMatchObject({ content: '```js\ny\n```\n' });
  });

  it('applies the server’s edit rules on plain text', () => {
    expect(applyTextEdits({ content: 'abc abc', edits: [{ oldText: 'abc', newText: 'x$&' }] })).toBe('x$& abc');
    expect(applyTextEdits({ content: 'tail', edits: [{ oldText: '', newText: 'head ' }] })).toBe('head tail');
    expect(() => applyTextEdits({ content: 'a', edits: [{ oldText: 'b', newText: 'c' }] })).toThrow(ToolError);
  });

  it('creates, lists and sizes folders', async () => {
    const { call } = setup();
    await call('create_directory', { path: '/workspace/shared/d/e' });
    expect((await call('create_directory', { path: '/workspace/shared/d' })).isError).toBeUndefined();
    await call('write_file', { path: '/workspace/shared/big.txt', content: 'x'.repeat(1536) });
    await call('write_file', { path: '/workspace/shared/a.txt', content: 'hi' });
    expect((await call('list_directory', { path: '/workspace/shared' })).content).toBe(
      '[FILE] a.txt\n[FILE] big.txt\n[DIR] d',
    );
    expect((await call('list_directory_with_sizes', { path: '/workspace/shared', sortBy: 'size' })).content).toBe(
      [
        `[DIR] ${'d'.padEnd(30)} `,
        `[FILE] ${'big.txt'.padEnd(30)} ${'1.50 KB'.padStart(10)}`,
        `[FILE] ${'a.txt'.padEnd(30)} ${'2 B'.padStart(10)}`,
        '',
        'Total: 2 files, 1 directories',
        'Combined size: 1.50 KB',
      ].join('\n'),
    );
    expect(await call('create_directory', { path: '/workspace/shared/a.txt' })).toEqual({
      content: "EEXIST: file already exists, mkdir '/workspace/shared/a.txt'",
      isError: true,
    });
    expect((await call('list_directory', { path: '/workspace/shared/a.txt' })).content).toBe(
      "ENOTDIR: not a directory, scandir '/workspace/shared/a.txt'",
    );
    expect((await call('write_file', { path: '/workspace/shared/d', content: 'x' })).content).toBe(
      "EISDIR: illegal operation on a directory, open '/workspace/shared/d'",
    );
  });

  it('formats sizes with the server’s units and rounding', () => {
    expect([0, 1, 1023, 1024, 1536, 1048576, 5 * 1024 ** 5].map(formatSize)).toEqual([
      '0 B',
      '1 B',
      '1023 B',
      '1.00 KB',
      '1.50 KB',
      '1.00 MB',
      '5120.00 TB',
    ]);
  });

  it('builds trees and searches with exclude patterns, returning full visible paths', async () => {
    const { call } = setup();
    await call('create_directory', { path: '../shared/src/node_modules/pkg' });
    await call('write_file', { path: '../shared/src/main.md', content: 'm' });
    await call('write_file', { path: '../shared/src/node_modules/pkg/x.md', content: 'x' });
    const tree = await call('directory_tree', { path: '/workspace/shared', excludePatterns: ['node_modules'] });
    expect(JSON.parse(tree.content)).toEqual([
      { name: 'src', type: 'directory', children: [{ name: 'main.md', type: 'file' }] },
    ]);
    expect((await call('search_files', { path: '/workspace/shared', pattern: '**/*.md' })).content).toBe(
      '/workspace/shared/src/main.md\n/workspace/shared/src/node_modules/pkg/x.md',
    );
    expect(
      (await call('search_files', { path: '/workspace/shared', pattern: '**/*.md', excludePatterns: ['src/node_*'] }))
        .content,
    ).toBe('/workspace/shared/src/main.md');
    expect((await call('search_files', { path: '/workspace/shared', pattern: '*.md' })).content).toBe(
      'No matches found',
    );
  });

  it('moves across folders, attributing the moved file to the mover, and refuses impossible moves', async () => {
    const { call, workspace } = setup();
    await call('write_file', { path: 'draft.md', content: 'd' });
    await call('create_directory', { path: 'box' });
    expect(await call('move_file', { source: 'draft.md', destination: '../shared/final.md' })).toEqual({
      content: 'Successfully moved draft.md to ../shared/final.md',
    });
    expect(workspace.vfs.get('shared/final.md')).toMatchObject({ content: 'd', lastWriter: 'agent_a' });
    const refuse = async (source: string, destination: string) =>
      (await call('move_file', { source, destination })).content;
    expect(await refuse('box', 'box/inner')).toBe(
      "EINVAL: invalid argument, rename '/workspace/agent/box' -> '/workspace/agent/box/inner'",
    );
    expect(await refuse('/workspace/shared', 'box/s')).toBe(
      "EBUSY: resource busy or locked, rename '/workspace/shared' -> '/workspace/agent/box/s'",
    );
    expect(await refuse('box', '/workspace/shared/final.md')).toBe(
      'Destination already exists: /workspace/shared/final.md',
    );
    expect(await refuse('box', 'no/such/place')).toBe(
      "ENOENT: no such file or directory, rename '/workspace/agent/box' -> '/workspace/agent/no/such/place'",
    );
  });

  it('reports file info with the clock, media as a data URI and the allowed folders', async () => {
    const { call } = setup();
    await call('write_file', { path: 'pic.PNG', content: 'png' });
    expect((await call('get_file_info', { path: 'pic.PNG' })).content).toBe(
      [
        'size: 3',
        `created: ${new Date(NOW)}`,
        `modified: ${new Date(NOW)}`,
        `accessed: ${new Date(NOW)}`,
        'isDirectory: false',
        'isFile: true',
        'permissions: 644',
      ].join('\n'),
    );
    expect((await call('read_media_file', { path: 'pic.PNG' })).content).toBe(
      `data:image/png;base64,${Buffer.from('png').toString('base64')}`,
    );
    expect((await call('list_allowed_directories', {})).content).toBe(
      'Allowed directories:\n/workspace/agent\n/workspace/shared',
    );
  });

  it('reads several files, reporting each failure in place', async () => {
    const { call } = setup();
    await call('write_file', { path: 'b.txt', content: 'mine' }, 'agent_b');
    await call('write_file', { path: 'a.txt', content: 'one' });
    expect((await call('read_multiple_files', { paths: ['a.txt', 'none.txt', '../agent_b/b.txt'] })).content).toBe(
      [
        'a.txt:\none\n',
        "none.txt: Error - ENOENT: no such file or directory, open '/workspace/agent/none.txt'",
        '../agent_b/b.txt: Error - Access denied - path outside allowed directories: /workspace/agent_b/b.txt not in /workspace/agent, /workspace/shared',
      ].join('\n---\n'),
    );
  });

  it('classifies writes into the shared folder as egress, per call', () => {
    const { kindOf } = setup();
    expect(kindOf('write_file', { path: 'x.md', content: '' })).toBe('write');
    expect(kindOf('write_file', { path: '/workspace/shared/x.md', content: '' })).toBe('egress');
    expect(kindOf('create_directory', { path: '../shared/d' })).toBe('egress');
    expect(kindOf('edit_file', { path: '/workspace/shared/x.md', edits: [] })).toBe('egress');
    expect(kindOf('edit_file', { path: '/workspace/shared/x.md', edits: [], dryRun: true })).toBe('read');
    expect(kindOf('move_file', { source: 'a', destination: '/workspace/shared/a' })).toBe('egress');
    expect(kindOf('move_file', { source: '/workspace/shared/a', destination: 'a' })).toBe('write');
    expect(kindOf('write_file', { path: '/etc/x', content: '' })).toBe('write');
    expect(kindOf('read_text_file', { path: '/workspace/shared/x.md' })).toBe('read');
  });

  it('offers a subset in the server’s order', () => {
    const { workspace } = setup();
    const names = createFilesystemTools({ view: workspace.viewFor('agent_a'), names: FILESYSTEM_TOOLSETS.paper6 }).map(
      (tool) => tool.name,
    );
    expect(names).toEqual([
      'read_text_file',
      'read_multiple_files',
      'write_file',
      'edit_file',
      'create_directory',
      'list_directory',
    ]);
  });
});
