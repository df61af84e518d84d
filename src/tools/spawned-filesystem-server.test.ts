import { access, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFilesystemServerEntry, SpawnedFilesystemServer } from './spawned-filesystem-server.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';
import { flattenTree, listFiles } from './virtual-file-system.js';
import { Workspace } from './workspace.js';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('SpawnedFilesystemServer', () => {
  it('finds the official server’s entry script', async () => {
    const entry = await resolveFilesystemServerEntry();
    expect(entry.endsWith(join('server-filesystem', 'dist', 'index.js'))).toBe(true);
    await access(entry);
  });

  it('materialises the workspace, keeps disk and VFS in step both ways, and cleans up', async () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
    workspace.vfs.createDirectory({ path: 'shared/seed' });
    workspace.vfs.writeFile({ path: 'shared/seed/brief.md', content: 'seeded', writer: null });
    workspace.vfs.writeFile({ path: 'agents/agent_b/b.md', content: 'b only', writer: 'agent_b' });
    const server = await SpawnedFilesystemServer.start({ workspace });
    const shared = server.folderOf('shared');
    expect(server.folderOf('agents/agent_a')).toBe(join(server.directory, 'agent_a'));
    expect(await readFile(join(shared, 'seed', 'brief.md'), 'utf8')).toBe('seeded');
    expect(await readFile(join(server.directory, 'agent_b', 'b.md'), 'utf8')).toBe('b only');

    const source = await server.openToolSource({ agentId: 'agent_a', namePrefix: 'filesystem_' });
    const write = await source.callTool({
      name: 'filesystem_write_file',
      input: { path: join(shared, 'seed', 'plan.md'), content: 'from A' },
    });
    expect(write).toEqual({
      content: `Successfully wrote to ${join(shared, 'seed', 'plan.md')}`,
      isError: false,
      kind: 'egress',
    });
    // Pulled back right after the call, attributed to the caller.
    expect(workspace.vfs.get('shared/seed/plan.md')).toMatchObject({ content: 'from A', lastWriter: 'agent_a' });
    expect(workspace.vfs.get('shared/seed/brief.md')).toMatchObject({ lastWriter: null });

    // A change made to the VFS meanwhile is written out before the next call.
    workspace.vfs.writeFile({ path: 'shared/seed/brief.md', content: 'updated in VFS', writer: 'agent_b' });
    const read = await source.callTool({
      name: 'filesystem_read_text_file',
      input: { path: join(shared, 'seed', 'brief.md') },
    });
    expect(read.content).toBe('updated in VFS');

    const move = await source.callTool({
      name: 'filesystem_move_file',
      input: { source: join(shared, 'seed'), destination: join(server.folderOf('agents/agent_a'), 'kept') },
    });
    expect(move).toMatchObject({ isError: false, kind: 'write' });
    expect(Object.keys(flattenTree(workspace.snapshot(), 'agents/agent_a'))).toEqual([
      'agents/agent_a/kept',
      'agents/agent_a/kept/brief.md',
      'agents/agent_a/kept/plan.md',
    ]);
    expect(listFiles(workspace.snapshot(), 'shared')).toEqual([]);

    // Changes made on disk outside a call arrive with sync().
    await writeFile(join(shared, 'late.md'), 'late');
    await server.sync({ writer: null });
    expect(workspace.vfs.get('shared/late.md')).toMatchObject({ content: 'late', lastWriter: null });

    const [pid] = server.processIds;
    expect(pid).toBeTypeOf('number');
    expect(isRunning(pid!)).toBe(true);
    await server.close();
    await server.close();
    expect(isRunning(pid!)).toBe(false);
    await expect(stat(server.directory)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(server.openToolSource({ agentId: 'agent_a' })).rejects.toBeInstanceOf(ToolInfrastructureError);
  });

  it('reports a server that cannot start as an infrastructure error and still cleans up', async () => {
    const workspace = Workspace.create({ agentIds: ['agent_a'] });
    const server = await SpawnedFilesystemServer.start({ workspace, serverEntry: '/nonexistent/server.js' });
    const failure = await server.openToolSource({ agentId: 'agent_a' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolInfrastructureError);
    expect(String((failure as Error).message)).toContain('did not start');
    await server.close();
    await expect(stat(server.directory)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
