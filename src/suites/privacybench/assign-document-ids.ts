import type { CommunityDocument, DocumentType } from './community-schema.js';
import { startMs } from './community-time.js';

/** The id prefix of each document kind (`chat-0001`, `group-0001`, `ai-0001`, `blog-0001`, `purchase-0001`). */
const ID_PREFIX: Record<DocumentType, string> = {
  chat: 'chat',
  'group-chat': 'group',
  'ai-chat': 'ai',
  blog: 'blog',
  purchase: 'purchase',
};

/**
 * The one document-id assigner of PrivacyBench communities, shared by the starter builder and the
 * generator: documents sorted by time (ties keep draft order) and numbered per kind, four digits.
 * Returns the renumbered documents and `rename` (draft id → final id) for the sharing events.
 */
export function assignDocumentIds<Doc extends CommunityDocument>(
  drafts: readonly Doc[],
): { documents: Doc[]; rename: Map<string, string> } {
  const ordered = drafts
    .map((doc, index) => ({ doc, index }))
    .sort((x, y) => startMs(x.doc.time) - startMs(y.doc.time) || x.index - y.index);
  const counters = new Map<DocumentType, number>();
  const rename = new Map<string, string>();
  const documents = ordered.map(({ doc }) => {
    const n = (counters.get(doc.type) ?? 0) + 1;
    counters.set(doc.type, n);
    const docId = `${ID_PREFIX[doc.type]}-${String(n).padStart(4, '0')}`;
    rename.set(doc.docId, docId);
    return { ...doc, docId };
  });
  return { documents, rename };
}
