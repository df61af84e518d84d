import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStarterCommunity } from './build-starter-community.js';
import { loadCommunity } from './load-community.js';
import { renderCommunityFiles, writeCommunityFiles } from './write-community.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('writeCommunityFiles', () => {
  it('writes files that load back to the same community', async () => {
    const root = await mkdtemp(join(tmpdir(), 'privacybench-write-'));
    dirs.push(root);
    const starter = buildStarterCommunity();
    const dir = join(root, 'nested', 'starter');
    const { communityPath, documentsPath } = await writeCommunityFiles({ dir, ...starter });
    expect(communityPath).toBe(join(dir, 'community.json'));
    const text = await readFile(documentsPath, 'utf8');
    expect(text.split('\n')).toHaveLength(starter.documents.length + 1);
    expect(text.endsWith('}\n')).toBe(true);
    const loaded = await loadCommunity({ dir });
    expect(loaded.community).toEqual(starter.community);
    expect(loaded.documents).toEqual(starter.documents);
  });

  it('renders one JSON document per line', () => {
    const starter = buildStarterCommunity();
    const { documentsText } = renderCommunityFiles({
      community: starter.community,
      documents: starter.documents.slice(0, 2),
    });
    expect(documentsText).toBe(`${JSON.stringify(starter.documents[0])}\n${JSON.stringify(starter.documents[1])}\n`);
  });
});
