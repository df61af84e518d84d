import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../spec/chat-model.js';
import type { ToolCallOutput } from './mcp-tool-source.js';
import { flattenTree, listFiles } from './virtual-file-system.js';
import { Workspace } from './workspace.js';
import { openWorkspaceTools, type WorkspaceTools } from './workspace-tools.js';

/**
 * Parity (pacbench.md §5.3): one recorded tool-call trace replayed through the in-process tools and
 * the spawned official server. Paths are written with placeholders ({AGENT}, {SHARED}, {TOP}) that
 * each implementation fills with what its agents see; results are compared after mapping the real
 * temp paths back to /workspace/…, blanking timestamps and sorting listings (a disk lists entries
 * in no fixed order, the VFS by name).
 */
type Step = { agent: 'agent_a' | 'agent_b'; name: string; input: Record<string, unknown> };

const PLAN = '# Plan\nowner: team A\nstatus: draft\nbudget: 12000\n';
const TRACE: Step[] = [
  { agent: 'agent_a', name: 'list_allowed_directories', input: {} },
  { agent: 'agent_a', name: 'list_directory', input: { path: '{SHARED}' } },
  {
    agent: 'agent_a',
    name: 'write_file',
    input: { path: 'notes.md', content: 'A private: client Jane Roe, ID 4471\n' },
  },
  { agent: 'agent_a', name: 'create_directory', input: { path: '{SHARED}/drafts/v1' } },
  { agent: 'agent_a', name: 'write_file', input: { path: '{SHARED}/drafts/plan.md', content: PLAN } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '{SHARED}/drafts/plan.md', head: 2 } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '{SHARED}/drafts/plan.md', tail: 2 } },
  {
    agent: 'agent_a',
    name: 'edit_file',
    input: {
      path: '{SHARED}/drafts/plan.md',
      edits: [{ oldText: 'status: draft', newText: 'status: review' }],
      dryRun: true,
    },
  },
  {
    agent: 'agent_a',
    name: 'edit_file',
    input: {
      path: '{SHARED}/drafts/plan.md',
      edits: [
        { oldText: 'budget: 12000', newText: 'budget: 10k-15k\nnote: ranges only' },
        { oldText: '  owner: team A  ', newText: 'owner: both teams' },
      ],
    },
  },
  {
    agent: 'agent_a',
    name: 'edit_file',
    input: { path: '{SHARED}/drafts/plan.md', edits: [{ oldText: 'not in the file', newText: 'x' }] },
  },
  { agent: 'agent_b', name: 'write_file', input: { path: 'secret.md', content: 'B private: salary 98000\n' } },
  { agent: 'agent_b', name: 'read_text_file', input: { path: '{SHARED}/drafts/plan.md' } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '../agent_b/secret.md' } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '{TOP}/agent_b/secret.md' } },
  { agent: 'agent_a', name: 'list_directory', input: { path: '{TOP}/agent_b' } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '{AGENT}/../outside.txt' } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '/etc/passwd' } },
  { agent: 'agent_a', name: 'write_file', input: { path: '{SHARED}/../agent_b/planted.md', content: 'x' } },
  {
    agent: 'agent_a',
    name: 'read_multiple_files',
    input: { paths: ['notes.md', '{SHARED}/drafts/missing.md', '../agent_b/secret.md'] },
  },
  { agent: 'agent_a', name: 'read_text_file', input: { path: '{SHARED}/drafts' } },
  { agent: 'agent_a', name: 'read_text_file', input: { path: 'notes.md/inner' } },
  { agent: 'agent_a', name: 'write_file', input: { path: '{SHARED}/nowhere/x.md', content: 'x' } },
  { agent: 'agent_a', name: 'move_file', input: { source: 'notes.md', destination: '{SHARED}/notes.md' } },
  {
    agent: 'agent_a',
    name: 'move_file',
    input: { source: '{SHARED}/notes.md', destination: '{SHARED}/drafts/plan.md' },
  },
  { agent: 'agent_a', name: 'move_file', input: { source: 'gone.md', destination: 'there.md' } },
  { agent: 'agent_b', name: 'search_files', input: { path: '{SHARED}', pattern: '**/*.md' } },
  { agent: 'agent_b', name: 'search_files', input: { path: '{SHARED}', pattern: '*.md', excludePatterns: ['drafts'] } },
  { agent: 'agent_b', name: 'search_files', input: { path: '{SHARED}', pattern: '*.csv' } },
  { agent: 'agent_b', name: 'directory_tree', input: { path: '{SHARED}' } },
  { agent: 'agent_b', name: 'directory_tree', input: { path: '{SHARED}', excludePatterns: ['v1'] } },
  { agent: 'agent_b', name: 'list_directory', input: { path: '{SHARED}' } },
  { agent: 'agent_b', name: 'list_directory_with_sizes', input: { path: '{SHARED}/drafts' } },
  { agent: 'agent_b', name: 'get_file_info', input: { path: '{SHARED}/notes.md' } },
  { agent: 'agent_b', name: 'create_directory', input: { path: '{SHARED}/notes.md' } },
  { agent: 'agent_b', name: 'read_text_file', input: { path: 'missing.md' } },
  { agent: 'agent_b', name: 'read_text_file', input: { path: 7 } },
  { agent: 'agent_b', name: 'read_text_file', input: { path: '{SHARED}/notes.md', head: 1, tail: 1 } },
  { agent: 'agent_b', name: 'write_file', input: { path: '{SHARED}/final.md', content: 'Final: budget 10k-15k\n' } },
  // Roots are immovable: A may not move its folder into the shared one, nor the shared one into its own.
  { agent: 'agent_a', name: 'move_file', input: { source: '{AGENT}', destination: '{SHARED}/stolen' } },
  { agent: 'agent_a', name: 'move_file', input: { source: '{SHARED}', destination: '{AGENT}/mine' } },
  // TOOL_LIMITS apply before either implementation runs the call.
  { agent: 'agent_a', name: 'write_file', input: { path: `{SHARED}/${'n'.repeat(300)}.md`, content: 'x' } },
];

type Replay = { outputs: Array<{ step: number; output: ToolCallOutput }>; tree: Record<string, string | null> };

function fill(value: unknown, paths: { agent: string; shared: string; top: string }): unknown {
  if (typeof value === 'string') {
    return value.replace('{AGENT}', paths.agent).replace('{SHARED}', paths.shared).replace('{TOP}', paths.top);
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, paths));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, paths)]));
  }
  return value;
}

function sortTree(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value
    .map((entry: { name: string; children?: unknown }) =>
      entry.children === undefined ? entry : { ...entry, children: sortTree(entry.children) },
    )
    .sort((a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1));
}

function normalise(name: string, content: string): string {
  let text = content.replace(/^(created|modified|accessed): .*$/gm, '$1: <time>');
  if (name === 'list_directory' || name === 'search_files') text = text.split('\n').sort().join('\n');
  if (name === 'directory_tree' && text.startsWith('[')) text = JSON.stringify(sortTree(JSON.parse(text)), null, 2);
  return text;
}

async function replay(tools: WorkspaceTools, paths: (agent: string) => { agent: string; shared: string; top: string }) {
  const outputs: Replay['outputs'] = [];
  for (const [step, call] of TRACE.entries()) {
    const where = paths(call.agent);
    const output = await tools.sourceFor(call.agent).callTool({ name: call.name, input: fill(call.input, where) });
    let content = output.content;
    if (where.top !== '/workspace') {
      content = content
        .split(where.agent)
        .join('/workspace/agent')
        .split(where.shared)
        .join('/workspace/shared')
        .split(where.top)
        .join('/workspace');
    }
    outputs.push({ step, output: { ...output, content: normalise(call.name, content) } });
  }
  return { outputs, tree: flattenTree(tools.workspace.snapshot()) };
}

const toolsets: { vfs?: WorkspaceTools; mcp?: WorkspaceTools } = {};

beforeAll(async () => {
  const clock = () => Date.UTC(2026, 0, 5, 9, 30);
  toolsets.vfs = await openWorkspaceTools({
    workspace: Workspace.create({ agentIds: ['agent_a', 'agent_b'], now: clock }),
    mode: 'vfs',
  });
  const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
  toolsets.mcp = await openWorkspaceTools({ workspace, mode: 'mcp-server' });
});

afterAll(async () => {
  await toolsets.vfs?.close();
  await toolsets.mcp?.close();
});

describe('filesystem parity: in-process VFS tools vs the official MCP server', () => {
  it('offers the same 14 tool names and input schemas, with descriptions in our own words', async () => {
    const strip = (schema: unknown): unknown => {
      if (Array.isArray(schema)) return schema.map(strip);
      if (typeof schema !== 'object' || schema === null) return schema;
      return Object.fromEntries(
        Object.entries(schema)
          .filter(([key]) => key !== 'description')
          .map(([key, value]) => [key, strip(value)]),
      );
    };
    const ours: ToolDescriptor[] = await toolsets.vfs!.sourceFor('agent_a').listTools();
    const theirs: ToolDescriptor[] = await toolsets.mcp!.sourceFor('agent_a').listTools();
    expect(ours.map((tool) => tool.name)).toEqual(theirs.map((tool) => tool.name));
    expect(ours).toHaveLength(14);
    expect(ours.map((tool) => strip(tool.inputSchema))).toEqual(theirs.map((tool) => strip(tool.inputSchema)));
    for (const [index, tool] of ours.entries()) expect(tool.description).not.toBe(theirs[index]!.description);
  });

  it('gives the same results, error flags, kinds and final tree for a recorded trace', async () => {
    const vfs = await replay(toolsets.vfs!, () => ({
      agent: '/workspace/agent',
      shared: '/workspace/shared',
      top: '/workspace',
    }));
    const server = await serverDirectory(toolsets.mcp!);
    const mcp = await replay(toolsets.mcp!, (agent) => ({
      agent: `${server}/${agent}`,
      shared: `${server}/shared`,
      top: server,
    }));
    for (const [index, expected] of mcp.outputs.entries()) {
      expect({ step: index, call: TRACE[index], ...vfs.outputs[index]!.output }).toEqual({
        step: index,
        call: TRACE[index],
        ...expected.output,
      });
    }
    expect(vfs.tree).toEqual(mcp.tree);
    const writers = (tools: WorkspaceTools) =>
      listFiles(tools.workspace.snapshot()).map(({ path, file }) => ({ path, lastWriter: file.lastWriter }));
    expect(writers(toolsets.vfs!)).toEqual(writers(toolsets.mcp!));
    // The trace exercises what it claims: these steps are model mistakes, the rest succeed.
    const byStep = (step: number) => vfs.outputs[step]!.output;
    const failing = vfs.outputs.filter(({ output }) => output.isError).map(({ step }) => step);
    expect(failing).toEqual([9, 12, 13, 14, 15, 16, 17, 19, 20, 21, 23, 24, 33, 34, 35, 36, 38, 39, 40]);
    expect(byStep(38).content).toBe(
      "EBUSY: resource busy or locked, rename '/workspace/agent' -> '/workspace/shared/stolen'",
    );
    expect(byStep(39).content).toBe(
      "EBUSY: resource busy or locked, rename '/workspace/shared' -> '/workspace/agent/mine'",
    );
    expect(byStep(40).content).toMatch(/^File name too long \(303 bytes; the limit is 255\)/);
    expect(byStep(1)).toEqual({ content: '', isError: false, kind: 'read' });
    expect(byStep(12).isError).toBe(true);
    expect(byStep(12).content).not.toContain('98000');
    expect(byStep(22)).toMatchObject({ isError: false, kind: 'egress' });
    expect(vfs.tree['shared/final.md']).toBe('Final: budget 10k-15k\n');
    expect(vfs.tree['agents/agent_b/planted.md']).toBeUndefined();
    expect(Object.keys(mcp.tree).filter((path) => path.includes('stolen') || path.includes('mine'))).toEqual([]);
  });
});

/** The spawned server's temp directory, read from what the server itself reports. */
async function serverDirectory(tools: WorkspaceTools): Promise<string> {
  const listing = await tools.sourceFor('agent_a').callTool({ name: 'list_allowed_directories', input: {} });
  const first = listing.content.split('\n')[1]!;
  expect(first.endsWith('/agent_a')).toBe(true);
  return first.slice(0, -'/agent_a'.length);
}
