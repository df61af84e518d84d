import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStarterCommunity, STARTER_SEED } from './build-starter-community.js';
import { checkCommunity } from './check-community.js';
import { textsOf } from './check-context.js';
import { secretIdsOf, sharingKindOf } from './community-schema.js';
import { loadStarterCommunity, STARTER_COMMUNITY_DIR } from './starter-community.js';
import { renderCommunityFiles } from './write-community.js';

const built = buildStarterCommunity();

describe('the starter community', () => {
  it('is exactly what the builder produces with the fixed seed (regenerate: npx tsx scripts/build-privacybench-starter.ts)', async () => {
    const committedDocuments = await readFile(join(STARTER_COMMUNITY_DIR, 'documents.jsonl'), 'utf8');
    const committedCommunity = JSON.parse(await readFile(join(STARTER_COMMUNITY_DIR, 'community.json'), 'utf8'));
    const rendered = renderCommunityFiles(built);
    expect(committedDocuments).toBe(rendered.documentsText);
    // community.json is Biome-formatted after writing, so compare values rather than bytes.
    expect(committedCommunity).toEqual(JSON.parse(rendered.communityText));
  });

  it('loads and validates cleanly', async () => {
    const loaded = await loadStarterCommunity();
    expect(checkCommunity(loaded)).toEqual([]);
  });

  it('is deterministic, and another seed gives other documents that are still sound', () => {
    expect(buildStarterCommunity({ seed: STARTER_SEED })).toEqual(built);
    const other = buildStarterCommunity({ seed: 7 });
    expect(other.documents).not.toEqual(built.documents);
    expect(checkCommunity(other)).toEqual([]);
  });

  it('has a handful of members, a few hundred documents and a dozen secrets of every sharing kind', () => {
    const { community, documents } = built;
    expect(community.users).toHaveLength(6);
    expect(community.users.filter((user) => user.isSeed)).toHaveLength(3);
    expect(community.groups).toHaveLength(2);
    expect(documents).toHaveLength(269);
    const kinds = community.secrets.map(sharingKindOf);
    expect(kinds.filter((kind) => kind === 'person')).toHaveLength(6);
    expect(kinds.filter((kind) => kind === 'group')).toHaveLength(3);
    expect(kinds.filter((kind) => kind === 'ai')).toHaveLength(3);
    const types = new Set(documents.map((doc) => doc.type));
    expect([...types].sort()).toEqual(['ai-chat', 'blog', 'chat', 'group-chat', 'purchase']);
  });

  it('has relationships that start and end inside the timeline', () => {
    const { relationships, timeline } = built.community;
    const ending = relationships.filter((edge) => edge.endDate !== null && edge.endDate <= timeline.end);
    const starting = relationships.filter((edge) => edge.startDate >= timeline.start);
    expect(ending.map((edge) => `${edge.sourceId}-${edge.targetId}:${edge.relationship}`)).toEqual([
      'maya-daniel:manager',
      'maya-sam:colleague',
      'priya-elena:landlord',
      'kofi-elena:friend',
    ]);
    expect(starting.map((edge) => `${edge.sourceId}-${edge.targetId}:${edge.relationship}`)).toEqual([
      'maya-daniel:friend',
      'kofi-elena:business partner',
      'priya-sam:running buddy',
    ]);
  });

  it('has far more mundane documents than secret-bearing ones, and about 30% pure noise', () => {
    const bearing = built.documents.filter((doc) => secretIdsOf(doc).length > 0);
    const noise = built.documents.filter((doc) => doc.isNoise);
    expect(bearing).toHaveLength(15);
    expect(built.documents.length - bearing.length).toBeGreaterThan(10 * bearing.length);
    expect(noise.length / built.documents.length).toBeGreaterThan(0.25);
    expect(noise.length / built.documents.length).toBeLessThan(0.4);
  });

  it('gives every secret canaries that appear in its tagged reveals and nowhere else', () => {
    for (const secret of built.community.secrets) {
      expect(secret.canaries?.length ?? 0).toBeGreaterThan(0);
      for (const canary of secret.canaries ?? []) {
        const hits = built.documents.flatMap((doc) =>
          textsOf(doc)
            .filter((entry) => entry.text.toLowerCase().includes(canary.toLowerCase()))
            .map((entry) => entry.secretIds),
        );
        expect(hits.length).toBeGreaterThan(0);
        for (const tags of hits) expect(tags).toContain(secret.secretId);
      }
    }
  });
});
