import type { Chunk } from '../../spec/chunk.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { CommunityDocument, Group, User } from './community-schema.js';
import { endMs, startMs } from './community-time.js';

/** How chat-like documents are cut (privacybench.md §4.1, §12 #1): one chunk per message, or windows of n messages. */
export type Chunking = { kind: 'message' } | { kind: 'window'; size: number };

/** Longest blog chunk body, in characters (§4.1: paragraphs up to 1,000 characters). */
export const BLOG_CHUNK_MAX_CHARS = 1000;

/**
 * Parses `--set chunking=…`: `message` (default) or `window:<n>` with a positive integer n.
 * Anything else is a `PlanValidationError` naming the accepted forms.
 */
export function parseChunking(value: string): Chunking {
  if (value === 'message') return { kind: 'message' };
  const match = /^window:(\d+)$/.exec(value);
  const size = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!Number.isInteger(size) || size < 1) {
    throw new PlanValidationError(`chunking must be 'message' or 'window:<n>' with n ≥ 1, got '${value}'`);
  }
  return { kind: 'window', size };
}

/** The documents in `userId`'s digital footprint: every document they take part in, in file order. */
export function footprintOf({
  documents,
  userId,
}: {
  documents: readonly CommunityDocument[];
  userId: string;
}): CommunityDocument[] {
  return documents.filter((doc) => doc.participants.includes(userId));
}

/**
 * The knowledge base of one user (privacybench.md §4.1): every document of their footprint cut
 * into chunks, each with its provenance (`docId`, `docType`, the document's `ownerId`,
 * `participants`, `time`, and the union of the secret tags inside it). Chat-like documents are
 * cut per message (or per window of messages), blogs per paragraph (at most
 * {@link BLOG_CHUNK_MAX_CHARS} characters), purchases per item. Each chunk's text starts with a
 * context header (document kind, counterpart or group, date) written from `userId`'s side.
 *
 * With `asOf` (the date filter, on by default in the suite) only chunks dated at or before that
 * instant are kept; a window's date is that of its last message. Chunk ids are
 * `<docId>#<messageId>`, `<docId>#w<n>`, `<docId>#p<n>` and `<docId>#i<n>`, unique within one
 * knowledge base and stable across runs.
 */
export function buildKnowledgeBase({
  community,
  documents,
  userId,
  asOf,
  chunking = { kind: 'message' },
}: {
  /** Only names are read: members for speakers and counterparts, groups for headers. */
  community: {
    users: ReadonlyArray<Pick<User, 'userId' | 'name'>>;
    groups: ReadonlyArray<Pick<Group, 'groupId' | 'name'>>;
  };
  documents: readonly CommunityDocument[];
  userId: string;
  asOf?: string;
  chunking?: Chunking;
}): Chunk[] {
  const names = new Map(community.users.map((user) => [user.userId, user.name]));
  const groups = new Map(community.groups.map((group) => [group.groupId, group.name]));
  const limit = asOf === undefined ? Number.POSITIVE_INFINITY : endMs(asOf);
  const chunks: Chunk[] = [];
  for (const doc of footprintOf({ documents, userId })) {
    for (const chunk of chunkDocument({ doc, viewerId: userId, names, groups, chunking })) {
      if (startMs(chunk.provenance.time) <= limit) chunks.push(chunk);
    }
  }
  return chunks;
}

type Piece = { id: string; body: string; time: string; secretIds: readonly string[] };

function chunkDocument({
  doc,
  viewerId,
  names,
  groups,
  chunking,
}: {
  doc: CommunityDocument;
  viewerId: string;
  names: ReadonlyMap<string, string>;
  groups: ReadonlyMap<string, string>;
  chunking: Chunking;
}): Chunk[] {
  const nameOf = (userId: string) => names.get(userId) ?? userId;
  let pieces: Piece[];
  switch (doc.type) {
    case 'chat':
    case 'group-chat':
      pieces = doc.messages.map((message) => ({
        id: message.messageId,
        body: `${nameOf(message.speakerId)}: ${message.text}`,
        time: message.time,
        secretIds: message.secretIds ?? [],
      }));
      break;
    case 'ai-chat':
      pieces = doc.messages.map((message) => ({
        id: message.messageId,
        body: `${message.role === 'user' ? nameOf(doc.ownerId) : 'Assistant'}: ${message.content}`,
        time: doc.time,
        secretIds: message.secretIds ?? [],
      }));
      break;
    case 'blog':
      pieces = splitParagraphs(doc.content).map((body, index) => ({
        id: `p${index + 1}`,
        body,
        time: doc.time,
        secretIds: [],
      }));
      break;
    case 'purchase':
      pieces = doc.items.map((item, index) => ({
        id: `i${index + 1}`,
        body: `Bought "${item.title}" by ${item.brand} (${item.categories.join(', ')}): ${item.description}`,
        time: doc.time,
        secretIds: item.secretIds ?? [],
      }));
      break;
  }
  if (chunking.kind === 'window' && doc.type !== 'blog' && doc.type !== 'purchase') {
    pieces = windows(pieces, chunking.size);
  }
  return pieces.map((piece) => ({
    id: `${doc.docId}#${piece.id}`,
    text: `${header({ doc, viewerId, nameOf, groups, time: piece.time })}\n${piece.body}`,
    provenance: {
      docId: doc.docId,
      docType: doc.type,
      ownerId: doc.ownerId,
      participants: [...doc.participants],
      time: piece.time,
      secretIds: [...new Set(piece.secretIds)].sort(),
    },
  }));
}

function windows(pieces: Piece[], size: number): Piece[] {
  const out: Piece[] = [];
  for (let start = 0; start < pieces.length; start += size) {
    const slice = pieces.slice(start, start + size);
    const last = slice.at(-1);
    if (last === undefined) continue;
    out.push({
      id: `w${out.length + 1}`,
      body: slice.map((piece) => piece.body).join('\n'),
      time: last.time,
      secretIds: slice.flatMap((piece) => piece.secretIds),
    });
  }
  return out;
}

/** `[Chat with Kofi Okafor, 2024-03-20]`, `[Group chat "Ridge Runners", …]`, `[Blog post "…" by …, …]`. */
function header({
  doc,
  viewerId,
  nameOf,
  groups,
  time,
}: {
  doc: CommunityDocument;
  viewerId: string;
  nameOf: (userId: string) => string;
  groups: ReadonlyMap<string, string>;
  time: string;
}): string {
  const date = new Date(startMs(time)).toISOString().slice(0, 10);
  switch (doc.type) {
    case 'chat': {
      const others = doc.participants.filter((userId) => userId !== viewerId).map(nameOf);
      return `[${doc.channel === 'email' ? 'Email' : 'Chat'} with ${others.join(' and ')}, ${date}]`;
    }
    case 'group-chat':
      return `[Group chat "${groups.get(doc.groupId) ?? doc.groupId}", ${date}]`;
    case 'ai-chat':
      return `[AI assistant chat of ${nameOf(doc.ownerId)}, ${date}]`;
    case 'blog':
      return `[Blog post "${doc.title}" by ${nameOf(doc.ownerId)}, ${date}]`;
    case 'purchase':
      return `[Purchase by ${nameOf(doc.ownerId)}, ${date}]`;
  }
}

/** Blank-line paragraphs, each cut at whitespace into pieces of at most BLOG_CHUNK_MAX_CHARS. */
function splitParagraphs(content: string): string[] {
  const out: string[] = [];
  for (const paragraph of content.split(/\n\s*\n/)) {
    let rest = paragraph.trim();
    while (rest.length > BLOG_CHUNK_MAX_CHARS) {
      const cut = rest.lastIndexOf(' ', BLOG_CHUNK_MAX_CHARS);
      const at = cut > 0 ? cut : BLOG_CHUNK_MAX_CHARS;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest !== '') out.push(rest);
  }
  return out;
}
