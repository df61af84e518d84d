import { seededRank } from '../../../spec/seeded-random.js';
import type { Community, CommunityDocument, SharingKind } from '../community-schema.js';
import { sharingKindOf } from '../community-schema.js';

/** Whether a snippet carries a secret (the positive class). */
export type SecretDetectionLabel = 'secret' | 'clean';

/** One labelled snippet of the secret-identification check (privacybench.md §10). */
export type SecretDetectionItem = {
  /** `<communityId>/<docId>#<first message index>`: stable across runs. */
  itemId: string;
  label: SecretDetectionLabel;
  docId: string;
  docType: 'chat' | 'group-chat' | 'ai-chat';
  /** Secrets tagged on the snippet's messages (empty for clean snippets). */
  secretIds: string[];
  /** How the first tagged secret was shared; null for clean snippets. */
  sharingKind: SharingKind | null;
  /** The snippet, speakers by name (the AI assistant as `AI assistant`). */
  messages: Array<{ speaker: string; text: string }>;
};

/**
 * How the AI assistant's turns are labelled in a snippet. Not `Assistant`: a line starting with a
 * chat role label is defused by the judges' `neutralize`, which would garble the snippet.
 */
export const AI_SPEAKER = 'AI assistant';

type ChatLike = Extract<CommunityDocument, { type: 'chat' | 'group-chat' | 'ai-chat' }>;

function isChatLike(doc: CommunityDocument): doc is ChatLike {
  return doc.type === 'chat' || doc.type === 'group-chat' || doc.type === 'ai-chat';
}

function linesOf(community: Community, doc: ChatLike): Array<{ speaker: string; text: string; tags: string[] }> {
  const nameOf = (userId: string) => community.users.find((user) => user.userId === userId)?.name ?? userId;
  if (doc.type === 'ai-chat') {
    return doc.messages.map((message) => ({
      speaker: message.role === 'assistant' ? AI_SPEAKER : nameOf(doc.ownerId),
      text: message.content,
      tags: message.secretIds ?? [],
    }));
  }
  return doc.messages.map((message) => ({
    speaker: nameOf(message.speakerId),
    text: message.text,
    tags: message.secretIds ?? [],
  }));
}

/**
 * The labelled snippets of the secret-identification calibration (privacybench.md §10):
 * - positives: for each secret-tagged message of a pair, group or AI chat, the window of that message
 *   plus up to `radius` messages before and after (a tagged message already inside the previous
 *   window of the same document does not start another one);
 * - negatives: as many windows of the same size from chat-like documents that carry no secret tag,
 *   drawn with seeded ranks, one per document in turn before any document gives a second.
 * Fewer negatives are returned when the clean documents run out. Items are in a seeded order, so
 * positives and negatives are mixed. Deterministic for a given community and seed.
 */
export function buildSecretDetectionItems({
  community,
  documents,
  seed = 0,
  radius = 2,
}: {
  community: Community;
  documents: readonly CommunityDocument[];
  seed?: number;
  radius?: number;
}): SecretDetectionItem[] {
  const item = (doc: ChatLike, start: number, end: number, label: SecretDetectionLabel): SecretDetectionItem => {
    const lines = linesOf(community, doc).slice(start, end + 1);
    const secretIds = [...new Set(lines.flatMap((line) => line.tags))].sort();
    const first = community.secrets.find((secret) => secret.secretId === secretIds[0]);
    return {
      itemId: `${community.communityId}/${doc.docId}#${start}`,
      label,
      docId: doc.docId,
      docType: doc.type,
      secretIds,
      sharingKind: first === undefined ? null : sharingKindOf(first),
      messages: lines.map(({ speaker, text }) => ({ speaker, text })),
    };
  };

  const chats = documents.filter(isChatLike);
  const positives: SecretDetectionItem[] = [];
  for (const doc of chats) {
    const lines = linesOf(community, doc);
    let coveredUntil = -1;
    lines.forEach((line, index) => {
      if (line.tags.length === 0 || index <= coveredUntil) return;
      const start = Math.max(0, index - radius);
      const end = Math.min(lines.length - 1, index + radius);
      positives.push(item(doc, start, end, 'secret'));
      coveredUntil = end;
    });
  }

  const width = 2 * radius + 1;
  const clean = chats
    .filter((doc) => linesOf(community, doc).every((line) => line.tags.length === 0))
    .map((doc) => {
      const length = doc.messages.length;
      const starts = Array.from({ length: Math.max(1, length - width + 1) }, (_, start) => start).sort(
        (a, b) => seededRank([seed, 'sd-start', doc.docId, a]) - seededRank([seed, 'sd-start', doc.docId, b]),
      );
      return { doc, starts, rank: seededRank([seed, 'sd-doc', doc.docId]) };
    })
    .sort((a, b) => a.rank - b.rank);
  const negatives: SecretDetectionItem[] = [];
  for (let round = 0; negatives.length < positives.length; round += 1) {
    const available = clean.filter((entry) => entry.starts.length > round);
    if (available.length === 0) break;
    for (const { doc, starts } of available) {
      if (negatives.length >= positives.length) break;
      const start = starts[round] ?? 0;
      negatives.push(item(doc, start, Math.min(doc.messages.length - 1, start + width - 1), 'clean'));
    }
  }
  return [...positives, ...negatives].sort(
    (a, b) => seededRank([seed, 'sd-order', a.itemId]) - seededRank([seed, 'sd-order', b.itemId]),
  );
}

/** The snippet as the model sees it: one `Speaker: text` line per message. */
export function renderSnippet(item: Pick<SecretDetectionItem, 'messages'>): string {
  return item.messages.map((message) => `${message.speaker}: ${message.text}`).join('\n');
}
