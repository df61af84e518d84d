import { describe, expect, it } from 'vitest';
import { isWithinWindow } from '../community-time.js';
import { isMemberAt } from '../social-graph.js';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { planDocuments } from './document-plan.js';

const volumes = {
  privateConversationsPerUser: 6,
  groupConversationsPerUser: 4,
  aiConversationsPerUser: 2,
  blogPostsPerUser: 2,
  purchasesPerUser: 3,
};

describe('planDocuments', () => {
  it('spreads each per-user volume over the steps and batches docsPerCall slots', () => {
    const draft = draftFixture({ docsPerCall: 2, parameters: volumes });
    const batches = planDocuments(draft);
    const slots = (userId: string, type: string, step?: number) =>
      batches
        .filter(
          (batch) => batch.userId === userId && batch.type === type && (step === undefined || batch.step === step),
        )
        .reduce((sum, batch) => sum + batch.slots.length, 0);
    expect([slots('u01', 'chat', 1), slots('u01', 'chat', 2)]).toEqual([3, 3]);
    expect([slots('u01', 'purchase', 1), slots('u01', 'purchase', 2)]).toEqual([1, 2]);
    expect(slots('u02', 'ai-chat')).toBe(2);
    // u03's only tie ends on 2024-06-30 and they leave the group on 2024-03-31: no such documents after that.
    expect([slots('u03', 'chat', 1), slots('u03', 'chat', 2)]).toEqual([3, 0]);
    expect([slots('u03', 'group-chat', 1), slots('u03', 'group-chat', 2)]).toEqual([2, 0]);
    expect(batches.every((batch) => batch.slots.length <= 2)).toBe(true);
    expect(batches.find((batch) => batch.key === 'docs/1/u01/chat/1')?.slots.map((slot) => slot.slot)).toEqual([0, 1]);
    expect(batches.find((batch) => batch.key === 'docs/1/u01/chat/2')?.slots.map((slot) => slot.slot)).toEqual([0]);
    expect(planDocuments(draftFixture({ docsPerCall: 2, parameters: volumes }))).toEqual(batches);
  });

  it('places every document where it can happen', () => {
    const draft = draftFixture({ parameters: volumes });
    for (const batch of planDocuments(draft)) {
      for (const slot of batch.slots) {
        expect(isWithinWindow({ from: batch.window.from, to: batch.window.to, at: slot.time })).toBe(true);
        expect(slot.time.slice(11) >= '08:00:00Z' && slot.time.slice(11) <= '18:00:00Z').toBe(true);
        expect(slot.participants[0]).toBe(batch.userId);
        if (batch.type === 'chat') {
          const edge = draft.community.relationships.find(
            (candidate) =>
              [candidate.sourceId, candidate.targetId].sort().join() ===
              [batch.userId, slot.counterpartId].sort().join(),
          );
          expect(edge && isWithinWindow({ from: edge.startDate, to: edge.endDate, at: slot.time })).toBe(true);
          expect(slot.channel === 'message' || slot.channel === 'email').toBe(true);
        } else if (batch.type === 'group-chat') {
          const group = draft.community.groups[0]!;
          expect(slot.participants.length).toBeGreaterThanOrEqual(2);
          expect(slot.participants.every((userId) => isMemberAt({ group, userId, at: slot.time }))).toBe(true);
        } else {
          expect(slot.participants).toEqual([batch.userId]);
        }
      }
    }
  });

  it('applies the noise share and reveals only attributes valid that day', () => {
    const allNoise = planDocuments(
      draftFixture({ parameters: { ...volumes, conversationNoiseRatio: 1, blogNoiseRatio: 1 } }),
    ).flatMap((b) => b.slots);
    expect(allNoise.every((slot) => slot.noise && slot.revealAttribute === null)).toBe(true);
    const draft = draftFixture({
      parameters: { ...volumes, conversationNoiseRatio: 0, blogNoiseRatio: 0, attributeRevealProbability: 1 },
    });
    const u01 = planDocuments(draft)
      .filter((batch) => batch.userId === 'u01')
      .flatMap((batch) => batch.slots);
    expect(u01.every((slot) => !slot.noise && slot.revealAttribute !== null)).toBe(true);
    for (const slot of u01) {
      const values = draft.community.users[0]?.attributes[slot.revealAttribute?.name ?? ''] ?? [];
      const valid = values.filter((value) =>
        isWithinWindow({ from: value.validFrom, to: value.validTo, at: slot.time }),
      );
      expect(valid.map((value) => value.value)).toContain(slot.revealAttribute?.value);
    }
    // u02 has no attributes: nothing to reveal.
    const u02 = planDocuments(draft)
      .filter((batch) => batch.userId === 'u02')
      .flatMap((batch) => batch.slots);
    expect(u02.every((slot) => slot.revealAttribute === null)).toBe(true);
    const mixed = planDocuments(draftFixture({ parameters: { ...volumes, privateConversationsPerUser: 200 } })).flatMap(
      (b) => b.slots,
    );
    const share = mixed.filter((slot) => slot.noise).length / mixed.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });
});
