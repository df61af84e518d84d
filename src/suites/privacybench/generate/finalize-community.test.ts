import { describe, expect, it } from 'vitest';
import { GenerationError } from '../../../generation/index.js';
import { loadStarterCommunity } from '../starter-community.js';
import { finalizeCommunity } from './finalize-community.js';
import { emptyDraft } from './generation-draft.js';
import { resolveGenerationOptions } from './generation-options.js';

async function starterDraft() {
  const { community, documents } = await loadStarterCommunity();
  const draft = emptyDraft(
    resolveGenerationOptions({ communityId: community.communityId, overrides: { timeline: community.timeline } }),
  );
  const draftId = new Map(documents.map((doc, index) => [doc.docId, `draft-${index}`]));
  draft.community = structuredClone(community);
  for (const secret of draft.community.secrets) {
    for (const event of secret.sharingEvents) event.docIds = event.docIds.map((docId) => draftId.get(docId) ?? docId);
  }
  draft.documents = documents.map((doc) => ({ ...structuredClone(doc), docId: draftId.get(doc.docId) ?? doc.docId }));
  return { draft, community, documents };
}

describe('finalizeCommunity', () => {
  it('sorts documents by time, numbers them per kind and repoints the sharing events', async () => {
    const { draft, community, documents } = await starterDraft();
    const finished = finalizeCommunity({ draft, datagenModel: 'mock:scripted', createdAt: '2025-01-02T03:04:05.000Z' });
    // The starter community uses the same numbering, so its own ids come back.
    expect(finished.documents).toEqual(documents);
    expect(finished.community).toEqual({
      ...community,
      generation: {
        datagenModel: 'mock:scripted',
        seed: 0,
        parameters: draft.options.parameters,
        createdAt: '2025-01-02T03:04:05.000Z',
      },
    });
  });

  it('refuses a community that fails its final validation (schemas as loadCommunity reads them), listing the issues', async () => {
    const { draft } = await starterDraft();
    draft.community.users[0]!.style = { personalityTraits: [] };
    const error = (() => {
      try {
        finalizeCommunity({ draft, datagenModel: 'mock:scripted', createdAt: '2025-01-02T03:04:05.000Z' });
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(/failed its final validation/);
    expect((error as Error).message).toMatch(/community\.json: users\[0\]\.style\.personalityTraits: /);
  });
});
