import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../spec/tool.js';
import { serveToolsInProcess } from './in-process-mcp-server.js';
import { flattenToolContent, McpToolSource } from './mcp-tool-source.js';
import { ToolError } from './tool-error.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';

const echo: Tool<{ text: string }> = {
  name: 'echo',
  description: 'Repeat the text.',
  inputSchema: z.object({ text: z.string() }),
  kind: 'think',
  execute: async ({ input, context }) => ({ content: `${context.participantId}: ${input.text}` }),
};
const mistake: Tool = {
  name: 'mistake',
  description: 'Always a model mistake.',
  inputSchema: z.object({}),
  kind: 'read',
  execute: async () => {
    throw new ToolError('that file is not yours');
  },
};
const crash: Tool = {
  name: 'crash',
  description: 'Always a harness failure.',
  inputSchema: z.object({}),
  kind: 'read',
  execute: async () => {
    throw new TypeError('boom');
  },
};
const hidden: Tool = { ...mistake, name: 'hidden', description: 'Not offered.' };

async function open() {
  let serverClosed = false;
  const connection = await serveToolsInProcess({
    tools: [echo as Tool, mistake, crash, hidden],
    context: { participantId: 'agent_x' },
  });
  const source = new McpToolSource({
    client: connection.client,
    classify: ({ name }) => (name === 'echo' ? 'think' : 'read'),
    namePrefix: 'x_',
    toolNames: ['echo', 'mistake', 'crash'],
    onClose: async () => {
      serverClosed = true;
      await connection.server.close();
    },
  });
  return { source, serverClosed: () => serverClosed };
}

describe('McpToolSource', () => {
  it('lists the offered tools once, prefixed, with their JSON schemas', async () => {
    const { source } = await open();
    const tools = await source.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['x_echo', 'x_mistake', 'x_crash']);
    expect(tools[0]).toEqual({
      name: 'x_echo',
      description: 'Repeat the text.',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    });
    expect(await source.listTools()).toBe(tools);
    await source.close();
  });

  it('returns results, model mistakes and argument errors as outputs with the call’s kind', async () => {
    const { source } = await open();
    expect(await source.callTool({ name: 'x_echo', input: { text: 'hi' } })).toEqual({
      content: 'agent_x: hi',
      isError: false,
      kind: 'think',
    });
    expect(await source.callTool({ name: 'x_mistake', input: {} })).toEqual({
      content: 'that file is not yours',
      isError: true,
      kind: 'read',
    });
    const invalid = await source.callTool({ name: 'x_echo', input: { text: 1 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool echo/);
    expect((await source.callTool({ name: 'x_echo', input: null })).isError).toBe(true);
    expect(await source.callTool({ name: 'x_echo', input: ['hi'] })).toEqual({
      content: 'Invalid arguments for tool x_echo: expected a JSON object',
      isError: true,
      kind: 'read',
    });
    expect(await source.callTool({ name: 'echo', input: { text: 'hi' } })).toEqual({
      content: 'Tool echo is not available. Available tools: x_echo, x_mistake, x_crash',
      isError: true,
      kind: 'read',
    });
    expect((await source.callTool({ name: 'x_hidden', input: {} })).isError).toBe(true);
    await source.close();
  });

  it('throws a ToolInfrastructureError for a harness failure instead of showing it to the model', async () => {
    const { source } = await open();
    const failure = await source.callTool({ name: 'x_crash', input: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolInfrastructureError);
    expect((failure as ToolInfrastructureError).toolName).toBe('crash');
    expect((failure as ToolInfrastructureError).message).toContain('TypeError: boom');
    await source.close();
  });

  it('closes once, runs onClose, and fails later calls as infrastructure errors', async () => {
    const { source, serverClosed } = await open();
    await source.listTools();
    await Promise.all([source.close(), source.close()]);
    expect(serverClosed()).toBe(true);
    await expect(source.callTool({ name: 'x_echo', input: { text: 'late' } })).rejects.toBeInstanceOf(
      ToolInfrastructureError,
    );
  });
});

describe('flattenToolContent', () => {
  it('joins blocks into one text and turns binary blocks into data URIs', () => {
    expect(
      flattenToolContent([
        { type: 'text', text: 'line' },
        { type: 'image', data: 'iVBO', mimeType: 'image/png' },
        { type: 'audio', data: 'SUQz', mimeType: 'audio/mpeg' },
        { type: 'resource', resource: { uri: 'file:///x', text: 'embedded text' } },
        { type: 'resource', resource: { uri: 'file:///y', blob: 'AAEC', mimeType: 'application/pdf' } },
        { type: 'resource', resource: { uri: 'file:///z', blob: 'AA' } },
        { type: 'resource_link', uri: 'file:///w' },
        { type: 'hologram' },
      ]),
    ).toBe(
      [
        'line',
        'data:image/png;base64,iVBO',
        'data:audio/mpeg;base64,SUQz',
        'embedded text',
        'data:application/pdf;base64,AAEC',
        'data:application/octet-stream;base64,AA',
        'file:///w',
        '[hologram content]',
      ].join('\n'),
    );
    expect(flattenToolContent([])).toBe('');
  });
});
