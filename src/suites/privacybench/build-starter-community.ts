import { type SeededRandom, seededRandom } from '../../spec/seeded-random.js';
import { assignDocumentIds } from './assign-document-ids.js';
import type { ChatMessage, Community, CommunityDocument, PurchaseItem, Secret, User } from './community-schema.js';
import { COMMUNITY_FORMAT_VERSION } from './community-schema.js';
import { endMs, isWithinWindow, startMs } from './community-time.js';
import { membersAt } from './social-graph.js';
import { CHAT_TEMPLATES, GROUP_TEMPLATES } from './starter-chat-templates.js';
import { REVEAL_LINES, STARTER_GROUPS, STARTER_TIES, STARTER_USERS, styleText } from './starter-people.js';
import { type SharingScript, STARTER_SECRETS, type StarterSecret } from './starter-secrets.js';
import { AI_TEMPLATES, BLOG_TEMPLATES, INTEREST_ITEMS, PURCHASE_CATALOG, SLOT_VALUES } from './starter-templates.js';

/** The fixed seed the committed starter community was built with. */
export const STARTER_SEED = 20_240_101;

/** Volumes of the mundane documents (privacybench.md §2 table, "Starter community" column, scaled up). */
export const STARTER_VOLUMES = {
  groupChatsPerGroup: 22,
  aiChatsPerUser: 6,
  blogPostsPerUser: 3,
  purchasesPerUser: 6,
  /** Fraction of mundane documents that are pure noise (reveal nothing). */
  noiseRatio: 0.3,
  /** Chance that a non-noise mundane document reveals one of its owner's attributes. */
  attributeRevealProbability: 0.8,
} as const;

const TIMELINE = { start: '2024-01-01', end: '2024-12-31' };
const MINUTE = 60_000;
const DAY = 86_400_000;

/** The starter community and its documents, in file order. */
export type StarterCommunity = { community: Community; documents: CommunityDocument[] };

/**
 * Composes the project-authored starter community from our cast (starter-people.ts), secrets
 * (starter-secrets.ts) and mundane templates (starter-templates.ts). Deterministic: the same
 * seed gives the same output byte for byte. Documents are sorted by time and numbered per type
 * (`chat-0001`, `group-0001`, `ai-0001`, `blog-0001`, `purchase-0001`).
 */
export function buildStarterCommunity({ seed = STARTER_SEED }: { seed?: number } = {}): StarterCommunity {
  const random = seededRandom(seed);
  const drafts: CommunityDocument[] = [];
  const add = (doc: CommunityDocument) => drafts.push({ ...doc, docId: `draft-${drafts.length}` });
  const shareDrafts = new Map<string, string[]>();

  for (const secret of STARTER_SECRETS) {
    for (const script of secret.scripts) {
      add(sharingDocument({ secret, script }));
      shareDrafts.set(script.eventId, [`draft-${drafts.length - 1}`]);
    }
    for (const hint of secret.hints ?? []) {
      add({
        docId: '',
        type: 'purchase',
        time: hint.time,
        participants: [secret.ownerId],
        ownerId: secret.ownerId,
        isNoise: false,
        items: hint.items.map((item) => ({ ...item, secretIds: [secret.secretId] })),
      });
    }
  }
  for (const doc of mundaneDocuments(random)) add(doc);

  const assigned = assignDocumentIds(drafts);
  const { rename } = assigned;
  // The starter's documents lead with their id and kind.
  const documents = assigned.documents.map((doc) => ({ ...{ docId: doc.docId, type: doc.type }, ...doc }));

  const secrets: Secret[] = STARTER_SECRETS.map(({ scripts, hints: _hints, ...secret }) => ({
    ...secret,
    sharingEvents: scripts.map((script) => ({
      eventId: script.eventId,
      audience: script.audience,
      sharedAt: firstRevealTime({ ownerId: secret.ownerId, script }),
      docIds: (shareDrafts.get(script.eventId) ?? []).map((draft) => rename.get(draft) ?? draft),
    })),
  }));

  const community: Community = {
    formatVersion: COMMUNITY_FORMAT_VERSION,
    communityId: 'starter',
    timeline: TIMELINE,
    // Copies, so callers may edit the result without touching the cast.
    users: structuredClone(STARTER_USERS),
    groups: structuredClone(STARTER_GROUPS),
    relationships: STARTER_TIES.map((tie) => structuredClone(tie.relationship)),
    secrets,
  };
  return { community, documents };
}

function lineTime(start: string, index: number): string {
  return new Date(startMs(start) + index * 2 * MINUTE).toISOString().replace('.000Z', 'Z');
}

function firstRevealTime({ ownerId, script }: { ownerId: string; script: SharingScript }): string {
  if (script.channel === 'ai') return script.start;
  const index = script.lines.findIndex((line) => line.reveals === true && line.speakerId === ownerId);
  return lineTime(script.start, Math.max(index, 0));
}

function sharingDocument({ secret, script }: { secret: StarterSecret; script: SharingScript }): CommunityDocument {
  const base = { docId: '', time: script.start, ownerId: secret.ownerId, isNoise: false };
  const tags = (reveals: boolean | undefined) => (reveals === true ? { secretIds: [secret.secretId] } : {});
  if (script.channel === 'ai') {
    return {
      ...base,
      type: 'ai-chat',
      participants: [secret.ownerId],
      messages: script.lines.map((line, index) => ({
        messageId: `m${index + 1}`,
        role: line.speakerId === 'assistant' ? 'assistant' : 'user',
        content: line.text,
        ...tags(line.reveals),
      })),
    };
  }
  const messages: ChatMessage[] = script.lines.map((line, index) => ({
    messageId: `m${index + 1}`,
    speakerId: line.speakerId,
    text: line.text,
    time: lineTime(script.start, index),
    ...tags(line.reveals),
  }));
  if (script.audience.kind === 'group') {
    const groupId = script.audience.groupId;
    const group = STARTER_GROUPS.find((candidate) => candidate.groupId === groupId);
    const participants = group === undefined ? [] : membersAt({ group, at: script.start });
    return { ...base, type: 'group-chat', groupId, participants, messages };
  }
  const confidants = script.audience.kind === 'users' ? script.audience.userIds : [];
  return {
    ...base,
    type: 'chat',
    channel: script.channel === 'email' ? 'email' : 'message',
    participants: [secret.ownerId, ...confidants],
    messages,
  };
}

/** One value per `{slot}`, drawn once per document so every line of it agrees (same day, same place). */
type Slots = Record<string, string>;

function chooseSlots(random: SeededRandom): Slots {
  return Object.fromEntries(Object.entries(SLOT_VALUES).map(([slot, values]) => [slot, random.pick(values)]));
}

function fill(text: string, slots: Slots): string {
  return text.replace(/\{(\w+)\}/g, (match, slot: string) => slots[slot] ?? match);
}

function userById(userId: string): User {
  const user = STARTER_USERS.find((candidate) => candidate.userId === userId);
  if (user === undefined) throw new Error(`starter cast has no user '${userId}'`);
  return user;
}

/** A random instant in the closed window, between 08:00 and 20:59 UTC of a random day. */
function randomTime({ from, to, random }: { from: string; to: string; random: SeededRandom }): string {
  const first = startMs(from);
  const days = Math.floor((endMs(to) - first) / DAY);
  const day = first + random.int(0, days) * DAY;
  return new Date(day + random.int(8, 20) * 60 * MINUTE + random.int(0, 59) * MINUTE)
    .toISOString()
    .replace('.000Z', 'Z');
}

/** Whether a mundane document is noise, and otherwise which attribute (if any) it reveals. */
function revealFor({ user, at, random }: { user: User; at: string; random: SeededRandom }): {
  isNoise: boolean;
  reveal?: { name: string; line: string };
} {
  if (random.chance(STARTER_VOLUMES.noiseRatio)) return { isNoise: true };
  if (!random.chance(STARTER_VOLUMES.attributeRevealProbability)) return { isNoise: false };
  const valid = Object.entries(user.attributes).flatMap(([name, values]) =>
    values
      .filter((value) => isWithinWindow({ from: value.validFrom, to: value.validTo, at }))
      .map((value) => ({ name, value: value.value })),
  );
  if (valid.length === 0) return { isNoise: false };
  const chosen = random.pick(valid);
  const article = /^[aeiou]/i.test(chosen.value) ? 'an' : 'a';
  const line = random
    .pick(REVEAL_LINES[chosen.name] ?? ['{value}.'])
    .replace('{value}', chosen.value)
    .replace('{a}', article);
  return { isNoise: false, reveal: { name: chosen.name, line: line.charAt(0).toUpperCase() + line.slice(1) } };
}

function timedMessages({
  lines,
  start,
  random,
}: {
  lines: Array<{ speakerId: string; text: string }>;
  start: string;
  random: SeededRandom;
}): ChatMessage[] {
  const slots = chooseSlots(random);
  let at = startMs(start);
  return lines.map((line, index) => {
    if (index > 0) at += random.int(1, 6) * MINUTE;
    return {
      messageId: `m${index + 1}`,
      speakerId: line.speakerId,
      text: styleText({ userId: line.speakerId, text: fill(line.text, slots), random }),
      time: new Date(at).toISOString().replace('.000Z', 'Z'),
    };
  });
}

/** Inserts the owner's attribute-revealing line right after the opening line. */
function withReveal({
  lines,
  reveal,
  ownerId,
}: {
  lines: Array<{ speakerId: string; text: string }>;
  reveal: { line: string } | undefined;
  ownerId: string;
}): Array<{ speakerId: string; text: string }> {
  if (reveal === undefined) return lines;
  return [...lines.slice(0, 1), { speakerId: ownerId, text: reveal.line }, ...lines.slice(1)];
}

function mundaneDocuments(random: SeededRandom): CommunityDocument[] {
  const docs: CommunityDocument[] = [];
  for (const tie of STARTER_TIES) {
    const edge = tie.relationship;
    // ISO dates order as strings: clip the tie's window to the timeline.
    const [from = TIMELINE.start] = [edge.startDate, TIMELINE.start].sort().slice(-1);
    const [to = TIMELINE.end] = [edge.endDate ?? TIMELINE.end, TIMELINE.end].sort();
    const days = (endMs(to) - startMs(from) + 1) / DAY;
    const count = Math.round((tie.chatsPerYear * days) / 366);
    const templates = CHAT_TEMPLATES.filter((template) => tie.topics.includes(template.topic));
    for (let i = 0; i < count; i += 1) {
      const time = randomTime({ from, to, random });
      const [ownerId, otherId] = random.chance(0.5) ? [edge.sourceId, edge.targetId] : [edge.targetId, edge.sourceId];
      const template = random.pick(templates);
      const { isNoise, reveal } = revealFor({ user: userById(ownerId), at: time, random });
      const lines = template.lines.map((line) => ({
        speakerId: line.who === 'a' ? ownerId : otherId,
        text: line.text,
      }));
      docs.push({
        docId: '',
        type: 'chat',
        channel:
          template.topic === 'work' || template.topic === 'business' ? random.pick(['message', 'email']) : 'message',
        time,
        participants: [ownerId, otherId],
        ownerId,
        isNoise,
        ...(reveal === undefined ? {} : { revealedAttributes: [reveal.name] }),
        messages: timedMessages({ lines: withReveal({ lines, reveal, ownerId }), start: time, random }),
      });
    }
  }

  for (const group of STARTER_GROUPS) {
    const templates = GROUP_TEMPLATES[group.groupId] ?? [];
    for (let i = 0; i < STARTER_VOLUMES.groupChatsPerGroup && templates.length > 0; i += 1) {
      const time = randomTime({ from: TIMELINE.start, to: TIMELINE.end, random });
      const members = membersAt({ group, at: time });
      if (members.length < 2) continue;
      const offset = random.int(0, members.length - 1);
      const speakers = members.map((_, m) => members[(offset + m) % members.length] ?? members[0] ?? '');
      const ownerId = speakers[0] ?? '';
      const { isNoise, reveal } = revealFor({ user: userById(ownerId), at: time, random });
      const lines = random
        .pick(templates)
        .map((text, l) => ({ speakerId: speakers[l % speakers.length] ?? ownerId, text }));
      docs.push({
        docId: '',
        type: 'group-chat',
        groupId: group.groupId,
        time,
        participants: members,
        ownerId,
        isNoise,
        ...(reveal === undefined ? {} : { revealedAttributes: [reveal.name] }),
        messages: timedMessages({ lines: withReveal({ lines, reveal, ownerId }), start: time, random }),
      });
    }
  }

  for (const user of STARTER_USERS) {
    docs.push(...ownerDocuments({ user, random }));
  }
  return docs;
}

/** AI chats, blog posts and purchases of one member. */
function ownerDocuments({ user, random }: { user: User; random: SeededRandom }): CommunityDocument[] {
  const docs: CommunityDocument[] = [];
  const base = (time: string, isNoise: boolean, reveal: { name: string } | undefined) => ({
    docId: '',
    time,
    participants: [user.userId],
    ownerId: user.userId,
    isNoise,
    ...(reveal === undefined ? {} : { revealedAttributes: [reveal.name] }),
  });
  for (let i = 0; i < STARTER_VOLUMES.aiChatsPerUser; i += 1) {
    const time = randomTime({ from: TIMELINE.start, to: TIMELINE.end, random });
    const { isNoise, reveal } = revealFor({ user, at: time, random });
    const template = random.pick(AI_TEMPLATES);
    const slots = chooseSlots(random);
    const ask = fill(template.ask, slots);
    const content = styleText({
      userId: user.userId,
      text: reveal === undefined ? ask : `${reveal.line} ${ask}`,
      random,
    });
    docs.push({
      ...base(time, isNoise, reveal),
      type: 'ai-chat',
      messages: [
        { messageId: 'm1', role: 'user', content },
        { messageId: 'm2', role: 'assistant', content: fill(template.answer, slots) },
      ],
    });
  }
  const blogOffset = random.int(0, BLOG_TEMPLATES.length - 1);
  for (let i = 0; i < STARTER_VOLUMES.blogPostsPerUser; i += 1) {
    const time = randomTime({ from: TIMELINE.start, to: TIMELINE.end, random });
    const { isNoise, reveal } = revealFor({ user, at: time, random });
    const template = BLOG_TEMPLATES[(blogOffset + i) % BLOG_TEMPLATES.length] ?? BLOG_TEMPLATES[0];
    if (template === undefined) break;
    const slots = chooseSlots(random);
    const paragraphs = template.paragraphs.map((paragraph) => fill(paragraph, slots));
    if (reveal !== undefined) paragraphs.push(reveal.line);
    docs.push({
      ...base(time, isNoise, reveal),
      type: 'blog',
      title: fill(template.title, slots),
      content: paragraphs.join('\n\n'),
    });
  }
  for (let i = 0; i < STARTER_VOLUMES.purchasesPerUser; i += 1) {
    const time = randomTime({ from: TIMELINE.start, to: TIMELINE.end, random });
    const items: PurchaseItem[] = [random.pick(PURCHASE_CATALOG)];
    const interests = (user.attributes.interests ?? []).filter((value) =>
      isWithinWindow({ from: value.validFrom, to: value.validTo, at: time }),
    );
    const isNoise = random.chance(STARTER_VOLUMES.noiseRatio) || interests.length === 0;
    const interestItem = isNoise ? undefined : INTEREST_ITEMS[random.pick(interests).value];
    if (interestItem !== undefined) items.push(interestItem);
    docs.push({
      ...base(time, interestItem === undefined, interestItem === undefined ? undefined : { name: 'interests' }),
      type: 'purchase',
      items,
    });
  }
  return docs;
}
