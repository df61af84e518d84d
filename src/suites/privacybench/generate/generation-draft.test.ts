import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { cloneDraft, emptyDraft, nameOf, userIdAt } from './generation-draft.js';
import { resolveGenerationOptions } from './generation-options.js';

describe('generation draft', () => {
  it('starts with the timeline only', () => {
    const draft = emptyDraft(
      resolveGenerationOptions({
        communityId: 'c',
        overrides: { timeline: { start: '2023-01-01', end: '2023-06-30' } },
      }),
    );
    expect(draft.community).toMatchObject({
      communityId: 'c',
      timeline: { start: '2023-01-01', end: '2023-06-30' },
      users: [],
      secrets: [],
    });
    expect(draft.documents).toEqual([]);
  });

  it('numbers users and copies deeply', () => {
    expect([userIdAt(0), userIdAt(9), userIdAt(98)]).toEqual(['u01', 'u10', 'u99']);
    const draft = draftFixture();
    const copy = cloneDraft(draft);
    copy.community.users[0]!.name = 'Changed';
    copy.owners.documents.x = 'y';
    expect(nameOf(draft, 'u01')).toBe('Ada Quinn');
    expect(draft.owners.documents).toEqual({});
    expect(nameOf(draft, 'u99')).toBe('u99');
  });
});
