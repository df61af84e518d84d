import { describe, expect, it } from 'vitest';
import { Workspace } from './workspace.js';
import { renderSharedArtifact, WorkspaceSnapshots } from './workspace-snapshots.js';

describe('WorkspaceSnapshots', () => {
  it('records what each turn changed across every folder', () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
    const snapshots = new WorkspaceSnapshots({ workspace });
    const vfs = workspace.vfs;
    vfs.writeFile({ path: 'agents/agent_a/notes.md', content: 'private', writer: 'agent_a' });
    vfs.writeFile({ path: 'shared/report.md', content: 'v1', writer: 'agent_a' });
    expect(snapshots.take({ turn: 1 })).toEqual({
      turn: 1,
      changed: { 'agents/agent_a/notes.md': 'private', 'shared/report.md': 'v1' },
    });
    expect(snapshots.take({ turn: 2 })).toEqual({ turn: 2, changed: {} });
    vfs.writeFile({ path: 'shared/report.md', content: 'v2', writer: 'agent_b' });
    vfs.remove({ path: 'agents/agent_a/notes.md' });
    snapshots.take({ turn: 3 });
    expect(snapshots.turns).toEqual([
      { turn: 1, changed: { 'agents/agent_a/notes.md': 'private', 'shared/report.md': 'v1' } },
      { turn: 2, changed: {} },
      { turn: 3, changed: { 'agents/agent_a/notes.md': null, 'shared/report.md': 'v2' } },
    ]);
    // Changes after the last snapshot are not part of the final artifact.
    vfs.writeFile({ path: 'shared/late.md', content: 'late', writer: 'agent_b' });
    expect(snapshots.finalArtifact().files).toEqual([{ path: 'shared/report.md', bytes: 2, lastWriter: 'agent_b' }]);
  });
});

describe('renderSharedArtifact', () => {
  it('lists the shared tree, then every file under its path', () => {
    const workspace = Workspace.create({ agentIds: ['agent_a', 'agent_b'] });
    const vfs = workspace.vfs;
    vfs.createDirectory({ path: 'shared/data/q1' });
    vfs.writeFile({ path: 'shared/data/q1/t.csv', content: 'id,v\n1,2\n', writer: 'agent_b' });
    vfs.writeFile({ path: 'shared/data/raw.bin', content: 'a\u0000b', writer: 'agent_a' });
    vfs.writeFile({ path: 'shared/report.md', content: '# Report', writer: 'agent_a' });
    vfs.writeFile({ path: 'agents/agent_a/secret.md', content: 'never shown', writer: 'agent_a' });
    const artifact = renderSharedArtifact({ snapshot: workspace.snapshot() });
    expect(artifact.text).toBe(
      [
        'shared/\n  data/\n    q1/\n      t.csv\n    raw.bin\n  report.md',
        '--- shared/data/q1/t.csv ---\nid,v\n1,2\n',
        '--- shared/data/raw.bin ---\n[binary file, 3 bytes]',
        '--- shared/report.md ---\n# Report',
      ].join('\n\n'),
    );
    expect(artifact.files).toEqual([
      { path: 'shared/data/q1/t.csv', bytes: 9, lastWriter: 'agent_b' },
      { path: 'shared/data/raw.bin', bytes: 3, lastWriter: 'agent_a' },
      { path: 'shared/report.md', bytes: 8, lastWriter: 'agent_a' },
    ]);
    expect(artifact.text).not.toContain('never shown');
  });

  it('says when the shared folder is empty', () => {
    const workspace = Workspace.create({ agentIds: ['agent_a'] });
    expect(renderSharedArtifact({ snapshot: workspace.snapshot() })).toEqual({ text: 'shared/\n  (empty)', files: [] });
  });
});
