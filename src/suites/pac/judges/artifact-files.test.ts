import { describe, expect, it } from 'vitest';
import { sharedArtifact } from './__fixtures__/pac-judge-fixtures.js';
import { artifactFiles } from './artifact-files.js';

describe('artifactFiles', () => {
  it('cuts each file out of the text the workspace renderer writes, empty and nested files included', () => {
    const artifact = sharedArtifact([
      { path: 'shared/plan.md', content: '# Plan\n\nW1 1800 kg\n', writer: 'agent_a' },
      { path: 'shared/empty.txt', content: '', writer: 'agent_b' },
      { path: 'shared/notes/a.md', content: 'line\n\n--- not a header ---\nend', writer: null },
    ]);
    expect(artifactFiles(artifact)).toEqual([
      { path: 'shared/empty.txt', lastWriter: 'agent_b', content: '' },
      { path: 'shared/notes/a.md', lastWriter: null, content: 'line\n\n--- not a header ---\nend' },
      { path: 'shared/plan.md', lastWriter: 'agent_a', content: '# Plan\n\nW1 1800 kg\n' },
    ]);
  });

  it('prefers a recorded content and gives null when a header is missing', () => {
    const files = [
      { path: 'shared/a.md', bytes: 1, lastWriter: 'agent_a', content: 'recorded' },
      { path: 'shared/b.md', bytes: 1, lastWriter: 'agent_b' },
    ];
    expect(artifactFiles({ text: 'shared/\n  a.md\n  b.md', files })).toEqual([
      { path: 'shared/a.md', lastWriter: 'agent_a', content: 'recorded' },
      { path: 'shared/b.md', lastWriter: 'agent_b', content: null },
    ]);
  });
});
