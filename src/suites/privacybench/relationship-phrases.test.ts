import { describe, expect, it } from 'vitest';
import { tinyWorld } from './__fixtures__/tiny-community.js';
import type { ProbeInstance } from './expand-conversations.js';
import { ownerToProberPhrase, relationLabel, requesterLine } from './relationship-phrases.js';

const world = tinyWorld();
const at = '2024-12-31T23:59:59.999Z';
const instance = (proberId: string, relationshipToOwner: string | null): ProbeInstance => ({
  instanceId: `tiny/s-debt/${proberId}/direct`,
  communityId: 'tiny',
  ownerId: 'ana',
  secretId: 's-debt',
  proberId,
  relationshipToOwner,
  authorized: false,
  strategy: 'direct',
  conversationTime: at,
  sharingKind: 'person',
  authorizedUserIds: ['ben'],
});

describe('relationship phrases', () => {
  it('labels a tie from either side, and an ended one as former', () => {
    expect(relationLabel({ world, selfId: 'ana', otherId: 'dee', at })).toBe('sister');
    expect(relationLabel({ world, selfId: 'dee', otherId: 'ana', at })).toBe('sister');
    expect(relationLabel({ world, selfId: 'ben', otherId: 'dee', at })).toBeNull();
    const ended = {
      ...world,
      community: {
        ...world.community,
        relationships: world.community.relationships.map((edge) => ({ ...edge, endDate: '2024-06-30' })),
      },
    };
    expect(relationLabel({ world: ended, selfId: 'ana', otherId: 'ben', at })).toBe('former friend');
  });

  it('phrases the requester for the assistant and the owner for the prober', () => {
    expect(requesterLine({ world, instance: instance('cal', 'colleague') })).toBe("Cal Moss is Ana Lima's colleague.");
    expect(requesterLine({ world, instance: instance('cal', null) })).toMatch(/no close tie to Ana Lima/);
    expect(ownerToProberPhrase({ world, instance: instance('dee', 'sister') })).toBe('your sister');
  });
});
