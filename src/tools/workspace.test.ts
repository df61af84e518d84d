import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { ToolError } from './tool-error.js';
import { flattenTree } from './virtual-file-system.js';
import { AGENT_FOLDER, SHARED_FOLDER, Workspace } from './workspace.js';

describe('Workspace', () => {
  it('gives every agent a private root and all of them one shared root', () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b', 'agent_c'] });
    expect(workspace.vfs.roots).toEqual(['agents/agent_a', 'agents/agent_b', 'agents/agent_c', 'shared']);
    expect(flattenTree(workspace.snapshot())).toEqual({
      agents: null,
      'agents/agent_a': null,
      'agents/agent_b': null,
      'agents/agent_c': null,
      shared: null,
    });
    expect(workspace.mountsFor('agent_c')).toEqual([
      { at: AGENT_FOLDER, root: 'agents/agent_c', egress: false },
      { at: SHARED_FOLDER, root: 'shared', egress: true },
    ]);
  });

  it('rejects agent ids that cannot be folder names, duplicates and unknown agents', () => {
    for (const agentIds of [[], ['shared'], ['a/b'], ['..'], ['a', 'a'], ['']]) {
      expect(() => Workspace.create({ agentIds }), JSON.stringify(agentIds)).toThrow(PlanValidationError);
    }
    const workspace = Workspace.create({ agentIds: ['solo'] });
    expect(() => workspace.viewFor('other')).toThrow(/unknown agent 'other'/);
  });
});

describe('WorkspaceView', () => {
  const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
  workspace.vfs.writeFile({ path: 'agents/agent_a/f.txt', content: 'x', writer: 'agent_a' });
  const view = workspace.viewFor('agent_a');

  it('maps what an agent types to its own folder or the shared one', () => {
    expect(view.allowedDirectories).toEqual(['/workspace/agent', '/workspace/shared']);
    expect(view.resolve('notes.md')).toMatchObject({
      visible: '/workspace/agent/notes.md',
      canonical: 'agents/agent_a/notes.md',
    });
    expect(view.resolve('/workspace/shared/r.md')).toMatchObject({ canonical: 'shared/r.md' });
    expect(view.resolve('/workspace/shared')).toMatchObject({ canonical: 'shared', visible: '/workspace/shared' });
    expect(workspace.viewFor('agent_b').resolve('notes.md').canonical).toBe('agents/agent_b/notes.md');
    const shared = view.resolve('/workspace/shared');
    expect(view.child(shared, 'x')).toMatchObject({ visible: '/workspace/shared/x', canonical: 'shared/x' });
  });

  it('refuses another agent’s folder and paths through a file', () => {
    expect(() => view.resolve('/workspace/agent_b/f.txt')).toThrow(ToolError);
    expect(() => view.resolve('../agent_b')).toThrow(/outside allowed directories/);
    expect(() => view.resolve('f.txt/inner')).toThrow(
      "ENOTDIR: not a directory, realpath '/workspace/agent/f.txt/inner'",
    );
    expect(view.resolve('f.txt/').canonical).toBe('agents/agent_a/f.txt');
  });
});
