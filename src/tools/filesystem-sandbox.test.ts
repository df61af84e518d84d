import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpawnedFilesystemServer } from './spawned-filesystem-server.js';
import { flattenTree } from './virtual-file-system.js';
import { Workspace } from './workspace.js';
import { openWorkspaceTools, type WorkspaceTools } from './workspace-tools.js';

/**
 * Sandbox: whatever path a model sends, an agent reads only its own folder and the shared one, and
 * writes land nowhere else. Run against both implementations; the spawned mode is also attacked
 * with symlinks planted in its materialised directory.
 */
const SECRET = 'B-ONLY: salary 98000, SSN 123-45-6789';

/** Paths meant to reach agent_b's private file from agent_a; `{TOP}` is the workspace top. */
const ESCAPES = [
  '../agent_b/secret.md',
  '{TOP}/agent_b/secret.md',
  '{TOP}/agent_b/../agent_b/secret.md',
  '{TOP}//agent_b/./secret.md',
  '/workspace/agent/../agent_b/secret.md',
  './../agent_b/secret.md',
  'sub/../../agent_b/secret.md',
  '{TOP}/shared/../agent_b/secret.md',
  '..\\agent_b\\secret.md',
  '%2e%2e/agent_b/secret.md',
  '..%2fagent_b%2fsecret.md',
  '../agent_b/secret.md\u0000.txt',
  '~/secret.md',
  'C:\\agent_b\\secret.md',
  '/etc/passwd',
  '{TOP}',
  '/',
];

function fill(path: string, top: string): string {
  return path.replace('{TOP}', top);
}

async function seed(workspace: Workspace): Promise<void> {
  workspace.vfs.writeFile({ path: 'agents/agent_b/secret.md', content: SECRET, writer: 'agent_b' });
}

describe.each([
  { mode: 'vfs' as const, top: () => '/workspace' },
  { mode: 'mcp-server' as const, top: (tools: WorkspaceTools) => topOf(tools) },
])('sandbox ($mode)', ({ mode, top }) => {
  let tools: WorkspaceTools;
  let topDirectory: string;

  beforeAll(async () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b', 'agent_c'] });
    await seed(workspace);
    tools = await openWorkspaceTools({ workspace, mode });
    topDirectory = await top(tools);
  });

  afterAll(async () => {
    await tools.close();
  });

  it('refuses every escape to another agent or outside the roots, without leaking content', async () => {
    const source = tools.sourceFor('agent_a');
    for (const attempt of ESCAPES) {
      const path = fill(attempt, topDirectory);
      for (const [name, input] of [
        ['read_text_file', { path }],
        ['read_multiple_files', { paths: [path] }],
        ['list_directory', { path }],
        ['get_file_info', { path }],
        ['search_files', { path, pattern: '**' }],
      ] as const) {
        const output = await source.callTool({ name, input });
        expect(output.content, `${name} ${JSON.stringify(path)}`).not.toContain('98000');
        expect(output.content).not.toMatch(/root:x:0/);
        if (name === 'read_multiple_files') expect(output.content).toContain(': Error - ');
        else expect(output.isError, `${name} ${JSON.stringify(path)}`).toBe(true);
      }
    }
  });

  it('lands no write outside the caller’s own folder and the shared one', async () => {
    const source = tools.sourceFor('agent_a');
    const before = flattenTree(tools.workspace.snapshot());
    for (const attempt of ESCAPES) {
      const path = `${fill(attempt, topDirectory)}-planted`;
      const write = await source.callTool({ name: 'write_file', input: { path, content: 'planted' } });
      const mkdir = await source.callTool({ name: 'create_directory', input: { path: `${path}-dir` } });
      const move = await source.callTool({ name: 'move_file', input: { source: path, destination: 'x.md' } });
      if (mode === 'vfs') expect([write.isError, mkdir.isError, move.isError]).toEqual([true, true, true]);
    }
    const after = flattenTree(tools.workspace.snapshot());
    const changed = Object.keys(after).filter((path) => before[path] !== after[path] || !(path in before));
    // The real server takes backslashes and %xx literally, so such names may appear — but only in
    // agent_a's own folder; the VFS refuses them outright.
    for (const path of changed) expect(path.startsWith('agents/agent_a/')).toBe(true);
    if (mode === 'vfs') expect(changed).toEqual([]);
    expect(after['agents/agent_b/secret.md']).toBe(SECRET);
    const stolen = await source.callTool({
      name: 'move_file',
      input: {
        source: fill('{TOP}/agent_b/secret.md', topDirectory),
        destination: fill('{TOP}/shared/got.md', topDirectory),
      },
    });
    expect(stolen.isError).toBe(true);
    expect(flattenTree(tools.workspace.snapshot())['shared/got.md']).toBeUndefined();
  });

  it('shows a third agent nothing of the other two', async () => {
    const source = tools.sourceFor('agent_c');
    const listing = await source.callTool({ name: 'list_allowed_directories', input: {} });
    expect(listing.content).not.toContain('agent_a');
    expect(listing.content).not.toContain('agent_b');
    const tree = await source.callTool({ name: 'directory_tree', input: { path: fill('{TOP}', topDirectory) } });
    expect(tree.isError).toBe(true);
  });
});

async function topOf(tools: WorkspaceTools): Promise<string> {
  const listing = await tools.sourceFor('agent_a').callTool({ name: 'list_allowed_directories', input: {} });
  return listing.content.split('\n')[1]!.replace(/\/agent_a$/, '');
}

describe('sandbox (mcp-server): symlinks planted in the materialised directory', () => {
  let server: SpawnedFilesystemServer;
  let workspace: Workspace;

  beforeAll(async () => {
    workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
    await seed(workspace);
    server = await SpawnedFilesystemServer.start({ workspace });
  });

  afterAll(async () => {
    await server.close();
  });

  it('the real server refuses to follow them out of the roots, and they never reach the VFS', async () => {
    const outsideFile = join(server.directory, 'outside.txt');
    await writeFile(outsideFile, 'OUTSIDE-CONTENT');
    const agentFolder = server.folderOf('agents/agent_a');
    await symlink(join(server.folderOf('agents/agent_b'), 'secret.md'), join(agentFolder, 'link-to-b.md'));
    await symlink(server.folderOf('agents/agent_b'), join(agentFolder, 'link-to-b-dir'));
    await symlink(outsideFile, join(server.folderOf('shared'), 'link-out.txt'));
    const source = await server.openToolSource({ agentId: 'agent_a' });
    for (const path of [
      join(agentFolder, 'link-to-b.md'),
      'link-to-b.md',
      join(agentFolder, 'link-to-b-dir', 'secret.md'),
      join(server.folderOf('shared'), 'link-out.txt'),
    ]) {
      const read = await source.callTool({ name: 'read_text_file', input: { path } });
      expect(read.isError, path).toBe(true);
      expect(read.content).toContain('Access denied');
      expect(read.content).not.toContain('98000');
      expect(read.content).not.toContain('OUTSIDE-CONTENT');
    }
    const write = await source.callTool({ name: 'write_file', input: { path: 'link-to-b.md', content: 'overwrite' } });
    expect(write.isError).toBe(true);
    expect(await readFile(join(server.folderOf('agents/agent_b'), 'secret.md'), 'utf8')).toBe(SECRET);
    const listing = await source.callTool({ name: 'list_directory', input: { path: agentFolder } });
    expect(listing.content).toContain('link-to-b.md');
    // Read back after every call: the links themselves are skipped, so the VFS never holds them.
    const tree = flattenTree(workspace.snapshot());
    expect(Object.keys(tree).filter((path) => path.includes('link'))).toEqual([]);
    expect(JSON.stringify(tree)).not.toContain('OUTSIDE-CONTENT');
    expect(tree['agents/agent_b/secret.md']).toBe(SECRET);
    expect((await readdir(agentFolder)).sort()).toEqual(['link-to-b-dir', 'link-to-b.md']);
  });
});
