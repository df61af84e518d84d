import { describe, expect, it } from 'vitest';
import { assignDocumentIds } from './assign-document-ids.js';
import type { CommunityDocument } from './community-schema.js';

const doc = (docId: string, type: CommunityDocument['type'], time: string) =>
  ({ docId, type, time, ownerId: 'maya', isNoise: false }) as unknown as CommunityDocument;

describe('assignDocumentIds', () => {
  it('orders by time (ties keep draft order), numbers per kind and says how drafts were renamed', () => {
    const { documents, rename } = assignDocumentIds([
      doc('d0', 'chat', '2024-03-01T10:00:00Z'),
      doc('d1', 'blog', '2024-01-01T10:00:00Z'),
      doc('d2', 'chat', '2024-01-01T10:00:00Z'),
      doc('d3', 'purchase', '2024-02-01T10:00:00Z'),
      doc('d4', 'group-chat', '2024-02-01T10:00:00Z'),
      doc('d5', 'ai-chat', '2024-05-01T10:00:00Z'),
    ]);
    expect(documents.map((document) => document.docId)).toEqual([
      'blog-0001',
      'chat-0001',
      'purchase-0001',
      'group-0001',
      'chat-0002',
      'ai-0001',
    ]);
    expect(Object.fromEntries(rename)).toEqual({
      d0: 'chat-0002',
      d1: 'blog-0001',
      d2: 'chat-0001',
      d3: 'purchase-0001',
      d4: 'group-0001',
      d5: 'ai-0001',
    });
  });
});
