import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';
import { Workspace } from './workspace.js';
import { openWorkspaceTools } from './workspace-tools.js';

describe('openWorkspaceTools', () => {
  it('opens one source per agent in vfs mode, each seeing only its own folder and the shared one', async () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b', 'agent_c'] });
    const tools = await openWorkspaceTools({
      workspace,
      mode: 'vfs',
      namePrefix: 'fs_',
      toolNames: ['write_file', 'read_text_file'],
    });
    expect(tools.mode).toBe('vfs');
    for (const agentId of workspace.agentIds) {
      const source = tools.sourceFor(agentId);
      expect((await source.listTools()).map((tool) => tool.name)).toEqual(['fs_read_text_file', 'fs_write_file']);
      await source.callTool({ name: 'fs_write_file', input: { path: 'me.txt', content: agentId } });
    }
    await tools
      .sourceFor('agent_a')
      .callTool({ name: 'fs_write_file', input: { path: '/workspace/shared/s.txt', content: 'A' } });
    const fromC = await tools
      .sourceFor('agent_c')
      .callTool({ name: 'fs_read_text_file', input: { path: '/workspace/shared/s.txt' } });
    expect(fromC).toEqual({ content: 'A', isError: false, kind: 'read' });
    expect(workspace.vfs.get('agents/agent_b/me.txt')).toMatchObject({ content: 'agent_b', lastWriter: 'agent_b' });
    expect(() => tools.sourceFor('agent_z')).toThrow(PlanValidationError);
    await tools.close();
  });

  it('fails as an infrastructure error and leaves no temp directory when the server cannot start', async () => {
    const tempRoot = await mkdtemp(join(tmpdir(), 'confidant-tools-test-'));
    try {
      const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
      await expect(
        openWorkspaceTools({ workspace, mode: 'mcp-server', serverEntry: '/nonexistent/server.js', tempRoot }),
      ).rejects.toBeInstanceOf(ToolInfrastructureError);
      expect(await readdir(tempRoot)).toEqual([]);
    } finally {
      await rm(tempRoot, { recursive: true, force: true });
    }
  });

  it('answers a glob bomb in both modes: in-process at once, a stuck official server by its time budget', async () => {
    const bomb = `${'*a'.repeat(14)}b`;
    const name = 'a'.repeat(40);
    for (const mode of ['vfs', 'mcp-server'] as const) {
      const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
      const tools = await openWorkspaceTools({ workspace, mode, timeoutMs: 1500 });
      try {
        const source = tools.sourceFor('agent_a');
        await source.callTool({ name: 'write_file', input: { path: name, content: 'x' } });
        const pids = tools.processIds;
        const listing = await source.callTool({ name: 'list_allowed_directories', input: {} });
        const own = listing.content.split('\n')[1]!;
        const found = await source.callTool({ name: 'search_files', input: { path: own, pattern: bomb } });
        if (mode === 'vfs') {
          expect(found).toEqual({ content: 'No matches found', isError: false, kind: 'read' });
        } else {
          // minimatch backtracks for hours here: the call is stopped and its server replaced.
          expect(found).toEqual({
            content: 'Tool search_files did not finish within its time budget of 1500 ms and was stopped',
            isError: true,
            kind: 'read',
          });
          expect(tools.processIds).not.toEqual(pids);
        }
        const after = await source.callTool({ name: 'search_files', input: { path: own, pattern: 'a*' } });
        expect(after.content).toBe(`${own}/${name}`);
      } finally {
        await tools.close();
      }
    }
  }, 30_000);
});
