import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext } from '../spec/tool.js';
import { FILESYSTEM_TOOLSETS } from './filesystem-tool-schemas.js';
import { openInProcessFilesystemSource, serveToolsInProcess } from './in-process-mcp-server.js';
import { Workspace } from './workspace.js';

describe('serveToolsInProcess', () => {
  it('runs tools with the given context plus the request’s abort signal, over real MCP messages', async () => {
    const seen: ToolContext[] = [];
    const probe: Tool<{ n: number }> = {
      name: 'probe',
      description: 'Doubles n.',
      inputSchema: z.object({ n: z.number().default(2) }),
      kind: 'read',
      execute: async ({ input, context }) => {
        seen.push(context);
        return { content: String(input.n * 2) };
      },
    };
    const soft: Tool = {
      name: 'soft',
      description: 'Reports an error without throwing.',
      inputSchema: z.object({}),
      kind: 'read',
      execute: async () => ({ content: 'not allowed', isError: true }),
    };
    const connection = await serveToolsInProcess({
      tools: [probe as Tool, soft],
      context: { participantId: 'p1', turn: 3 },
    });
    expect(await connection.client.callTool({ name: 'probe', arguments: {} })).toEqual({
      content: [{ type: 'text', text: '4' }],
    });
    expect(seen[0]).toMatchObject({ participantId: 'p1', turn: 3 });
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(await connection.client.callTool({ name: 'soft', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'not allowed' }],
      isError: true,
    });
    const missing = await connection.client.callTool({ name: 'nope', arguments: {} });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }],
    });
    await connection.close();
  });
});

describe('openInProcessFilesystemSource', () => {
  it('serves one agent’s filesystem tools over the workspace, prefixed and filtered', async () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b', 'agent_c'] });
    const source = await openInProcessFilesystemSource({
      workspace,
      agentId: 'agent_c',
      namePrefix: 'filesystem_',
      toolNames: FILESYSTEM_TOOLSETS.upstream,
    });
    const names = (await source.listTools()).map((tool) => tool.name);
    expect(names).toHaveLength(10);
    expect(names).not.toContain('filesystem_read_file');
    expect(names).not.toContain('filesystem_get_file_info');
    expect(names[0]).toBe('filesystem_read_text_file');
    expect(
      await source.callTool({
        name: 'filesystem_write_file',
        input: { path: '/workspace/shared/out.md', content: 'C' },
      }),
    ).toEqual({ content: 'Successfully wrote to /workspace/shared/out.md', isError: false, kind: 'egress' });
    expect(workspace.vfs.get('shared/out.md')).toMatchObject({ content: 'C', lastWriter: 'agent_c' });
    expect(
      await source.callTool({ name: 'filesystem_write_file', input: { path: 'mine.md', content: 'private' } }),
    ).toMatchObject({ isError: false, kind: 'write' });
    expect(workspace.vfs.get('agents/agent_c/mine.md')).toMatchObject({ content: 'private' });
    expect((await source.callTool({ name: 'filesystem_get_file_info', input: { path: 'mine.md' } })).isError).toBe(
      true,
    );
    await source.close();
  });
});
