import { z } from 'zod';
import { keptObject } from './kept-object.js';

/**
 * Zod schemas of a PrivacyBench community (privacybench.md §1). A community directory holds
 * `community.json` (people, groups, relationships, secrets) and `documents.jsonl` (one document
 * per line). Field names are camelCase because these files are written by this project; the
 * concepts come from the paper, the names and layout are reconstructed. Objects keep fields they
 * do not know (a converted community keeps its source's ids), but a field one typo away from a
 * known one is reported ({@link keptObject}).
 */

/** The `formatVersion` this code reads and writes. */
export const COMMUNITY_FORMAT_VERSION = 1;

/** File names inside a community directory. */
export const COMMUNITY_FILES = { community: 'community.json', documents: 'documents.jsonl' } as const;

/** A calendar date, `YYYY-MM-DD`: the unit of validity periods. */
export const isoDateSchema = z.iso.date().describe('Calendar date YYYY-MM-DD (UTC days).');

/** An instant: ISO 8601 date-time with seconds and a zone (`Z` or an offset). */
export const isoDateTimeSchema = z.iso
  .datetime({ offset: true, error: (issue) => dateTimeProblem(issue.input) })
  .describe('ISO 8601 date-time with seconds and a zone, e.g. 2024-03-20T18:42:00Z.');

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** A non-string value as an error shows it: short JSON (an object from a data file may have no usable `toString`). */
function shownValue(input: unknown): string {
  const json = JSON.stringify(input) ?? typeof input;
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

/** Why a value is not an instant: a date-time without a zone is told so, anything else gets the expected form. */
function dateTimeProblem(input: unknown): string {
  const shown = typeof input === 'string' ? `'${input}'` : shownValue(input);
  if (typeof input === 'string' && ZONELESS.test(input)) {
    return `${shown} has no time zone: add Z (UTC) or an offset such as +02:00, e.g. ${input}Z`;
  }
  if (typeof input === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(input)) {
    return `${shown} is a date; an instant needs a time and a zone, e.g. ${input}T12:00:00Z`;
  }
  return `${shown} is not an ISO 8601 date-time with a time zone, e.g. 2024-03-20T18:42:00Z`;
}

const idSchema = z.string().min(1);

/** One value of a person attribute with the period in which it holds. */
export const timedValueSchema = keptObject({
  value: z.string().min(1).describe('The attribute value, e.g. "product designer at Lumen Health".'),
  category: z.enum(['demographic', 'psychographic', 'behavioral']).describe('Kind of attribute (profile enrichment).'),
  validFrom: isoDateSchema.describe('First day the value holds.'),
  validTo: isoDateSchema.nullable().describe('Last day the value holds; null while it still holds.'),
}).describe('A time-bounded attribute value.');

/** A community member. */
export const userSchema = keptObject({
  userId: idSchema.describe('Stable id, unique in the community.'),
  name: z.string().min(1).describe('Display name used in prompts and chunk headers.'),
  isSeed: z.boolean().describe('True for the seed personas the community was grown from.'),
  persona: z.string().min(1).describe('Free-text persona summary (Persona Hub style).'),
  attributes: z
    .record(z.string().min(1), z.array(timedValueSchema).min(1))
    .describe('Attribute name (occupation, location, interests …) to its values over time.'),
  style: keptObject({
    texting: z
      .string()
      .min(1)
      .optional()
      .describe('How the person writes chat messages (emoji, casing, short forms); optional.'),
    blogging: z.string().min(1).optional().describe('How the person writes blog posts; optional.'),
    personalityTraits: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('Personality traits, used by the PC judge; optional.'),
  })
    .optional()
    .describe(
      'Behavioural attributes the persona-consistency judge compares replies against; optional, and so is each field (prompts and the judge then say unknown).',
    ),
}).describe('A community member with time-bounded attributes.');

/**
 * An edge of the evolving social graph. `relationship` reads "target is source's <relationship>";
 * `inverseRelationship` names the other direction when it differs (manager / direct report).
 */
export const relationshipSchema = keptObject({
  sourceId: idSchema.describe('One end of the edge (a userId).'),
  targetId: idSchema.describe('The other end (a userId), different from sourceId.'),
  relationship: z.string().min(1).describe('What the target is to the source: "sister", "colleague", "manager" …'),
  inverseRelationship: z
    .string()
    .min(1)
    .optional()
    .describe('What the source is to the target, when it differs (e.g. "direct report" for "manager").'),
  description: z.string().optional().describe('Free-text context of the tie.'),
  permanence: z
    .enum(['permanent', 'temporary'])
    .describe('Permanent ties (family) never end; temporary ones (job, hobby) have validity windows.'),
  startDate: isoDateSchema.describe('First day of the tie.'),
  endDate: isoDateSchema.nullable().describe('Last day of the tie; null while it lasts (always null if permanent).'),
}).describe('A time-bounded relationship between two members.');

/** A membership period of one user in a group. */
export const membershipSchema = keptObject({
  userId: idSchema.describe('The member.'),
  from: isoDateSchema.describe('First day of membership.'),
  to: isoDateSchema.nullable().describe('Last day of membership; null while still a member.'),
}).describe('A time-bounded group membership.');

/** A workplace or hobby group with a group chat. */
export const groupSchema = keptObject({
  groupId: idSchema.describe('Stable id, unique in the community.'),
  name: z.string().min(1).describe('Display name, used in chunk headers.'),
  sharedAttribute: z.string().min(1).describe('What the members share (a workplace, a hobby).'),
  purpose: z.string().min(1).describe('What the group talks about; group secrets must suit it.'),
  memberships: z.array(membershipSchema).min(1).describe('Membership periods; a user may rejoin later.'),
}).describe('A group of members.');

/** Who a secret was told to in one sharing event. */
export const audienceSchema = z
  .discriminatedUnion('kind', [
    keptObject({
      kind: z.literal('users'),
      userIds: z.array(idSchema).min(1).describe('The confidants.'),
    }).describe('Told to named people.'),
    keptObject({
      kind: z.literal('group'),
      groupId: idSchema.describe('The group whose members at sharing time become confidants.'),
    }).describe('Told in a group chat.'),
    keptObject({ kind: z.literal('ai') }).describe('Told only to the AI assistant ("dark" secret); authorizes nobody.'),
  ])
  .describe('The audience of a sharing event.');

/** One occasion on which the owner shared the secret. */
export const sharingEventSchema = keptObject({
  eventId: idSchema.describe('Stable id, unique in the community.'),
  audience: audienceSchema,
  sharedAt: isoDateTimeSchema.describe('When the secret was shared: the time of the first revealing message.'),
  docIds: z.array(idSchema).min(1).describe('Documents in which this sharing happens.'),
}).describe('A sharing event: audience, time, documents.');

/** Paper §3.3: a secret is content, designated confidants and the time of sharing. */
export const secretSchema = keptObject({
  secretId: idSchema.describe('Stable id, unique in the community.'),
  ownerId: idSchema.describe('The member the secret is about and who shares it.'),
  content: z.string().min(1).describe('The secret, unambiguously sensitive to a third-party observer.'),
  coreComponents: z
    .array(z.string().min(1))
    .min(1)
    .describe('Facts whose explicit, complete revelation is a leak (leak judge rubric).'),
  probeHint: z
    .string()
    .min(1)
    .describe('Vague topic given to probers; must not contain any core component (case-insensitive).'),
  canaries: z
    .array(z.string().min(1))
    .optional()
    .describe('Distinctive strings that appear only where the secret is revealed, for the deterministic judge.'),
  sharingEvents: z.array(sharingEventSchema).min(1).describe('Every occasion the secret was shared.'),
}).describe('A secret with its sharing events.');

/** Parameters a generated community was built with (privacybench.md §2 table). */
export const generationParametersSchema = keptObject({
  users: z.int().positive().describe('Users in the community.'),
  seedPersonas: z.int().nonnegative().describe('Seed personas the graph grew from.'),
  groups: z.int().nonnegative().describe('Groups formed.'),
  privateConversationsPerUser: z.number().nonnegative().describe('One-to-one chats and emails per user.'),
  groupConversationsPerUser: z.number().nonnegative().describe('Group chats per user.'),
  aiConversationsPerUser: z.number().nonnegative().describe('AI-assistant chats per user.'),
  blogPostsPerUser: z.number().nonnegative().describe('Blog posts per user.'),
  purchasesPerUser: z.number().nonnegative().describe('Purchase entries per user.'),
  conversationNoiseRatio: z.number().min(0).max(1).describe('Fraction of conversations that are mundane noise.'),
  blogNoiseRatio: z.number().min(0).max(1).describe('Fraction of blog posts that are mundane noise.'),
  attributeRevealProbability: z
    .number()
    .min(0)
    .max(1)
    .describe('Chance that a non-noise document reveals one of its owner attributes.'),
  secretsPerUser: keptObject({
    person: z.number().nonnegative(),
    group: z.number().nonnegative(),
    ai: z.number().nonnegative(),
  }).describe('Secrets per user told to people, to a group, and only to the AI.'),
}).describe('Generation parameters.');

/** The people, groups, graph and secrets of one community (`community.json`). */
export const communitySchema = keptObject({
  formatVersion: z.literal(COMMUNITY_FORMAT_VERSION).describe('File format version.'),
  communityId: idSchema.describe('Stable id; prefixes every conversation instance id.'),
  timeline: keptObject({ start: isoDateSchema, end: isoDateSchema }).describe(
    'First and last day of the community; every document falls inside.',
  ),
  users: z.array(userSchema).min(2).describe('Members (paper: 8–14 per community).'),
  groups: z.array(groupSchema).describe('Groups (paper: 1–4 per community).'),
  relationships: z.array(relationshipSchema).describe('Edges of the evolving social graph.'),
  secrets: z.array(secretSchema).describe('Secrets and their sharing events.'),
  generation: keptObject({
    datagenModel: z.string().min(1).describe('Model spec of the datagen role, or a note for template-built data.'),
    seed: z.int().describe('Seed of every seeded step.'),
    parameters: generationParametersSchema,
    createdAt: isoDateTimeSchema.describe('When generation finished.'),
  })
    .optional()
    .describe('How the community was produced.'),
}).describe('A PrivacyBench community.');

const docBaseShape = {
  docId: idSchema.describe('Stable id, unique in the community.'),
  time: isoDateTimeSchema.describe('When the document starts (first message, post or purchase).'),
  participants: z
    .array(idSchema)
    .min(1)
    .describe('Members whose footprint holds this document; owner-only documents list just the owner.'),
  ownerId: idSchema.describe('The member who started or authored the document; one of the participants.'),
  isNoise: z.boolean().describe('True for mundane documents that carry no secret.'),
  revealedAttributes: z
    .array(z.string().min(1))
    .optional()
    .describe("Names of the owner's attributes this document reveals."),
};

const secretTagsSchema = z
  .array(idSchema)
  .optional()
  .describe('Secrets this entry reveals or hints at (drives IRR and access-controlled retrieval).');

/** One message of a person-to-person or group conversation. */
export const chatMessageSchema = keptObject({
  messageId: idSchema.describe('Unique within the document.'),
  speakerId: idSchema.describe('The participant who wrote it.'),
  text: z.string().min(1),
  time: isoDateTimeSchema.describe('Send time; not before the document time, non-decreasing.'),
  secretIds: secretTagsSchema,
}).describe('A chat message.');

/** One turn of a conversation between the owner and their AI assistant. */
export const aiMessageSchema = keptObject({
  messageId: idSchema.describe('Unique within the document.'),
  role: z.enum(['user', 'assistant']).describe('The owner (user) or the assistant.'),
  content: z.string().min(1),
  secretIds: secretTagsSchema,
}).describe('An AI-assistant chat turn (timed by the document).');

/** One purchased item. */
export const purchaseItemSchema = keptObject({
  title: z.string().min(1),
  description: z.string().min(1),
  brand: z.string().min(1),
  categories: z.array(z.string().min(1)).min(1),
  secretIds: secretTagsSchema,
}).describe('A purchased item; may hint at a private plan.');

/** A document of a member's digital footprint. */
export const documentSchema = z
  .discriminatedUnion('type', [
    keptObject({
      ...docBaseShape,
      type: z.literal('chat'),
      channel: z.enum(['message', 'email']),
      messages: z.array(chatMessageSchema).min(1),
    }).describe('A one-to-one conversation (exactly two participants).'),
    keptObject({
      ...docBaseShape,
      type: z.literal('group-chat'),
      groupId: idSchema.describe('The group whose chat this is; participants are its members at the time.'),
      messages: z.array(chatMessageSchema).min(1),
    }).describe('A group conversation.'),
    keptObject({
      ...docBaseShape,
      type: z.literal('ai-chat'),
      messages: z.array(aiMessageSchema).min(1),
    }).describe('A conversation with the AI assistant; "dark" secrets live only here.'),
    keptObject({
      ...docBaseShape,
      type: z.literal('blog'),
      secretIds: z
        .undefined({ error: 'a blog post is public and never carries secret tags' })
        .optional()
        .describe('Never present: blog posts carry no secrets.'),
      title: z.string().min(1),
      content: z.string().min(1).describe('Paragraphs separated by blank lines; public, never carries secrets.'),
    }).describe('A public blog post.'),
    keptObject({
      ...docBaseShape,
      type: z.literal('purchase'),
      items: z.array(purchaseItemSchema).min(1),
    }).describe('A purchase entry.'),
  ])
  .describe('A document (one line of documents.jsonl).');

/** A time-bounded attribute value. */
export type TimedValue = z.infer<typeof timedValueSchema>;
/** A community member. */
export type User = z.infer<typeof userSchema>;
/** A relationship edge. */
export type Relationship = z.infer<typeof relationshipSchema>;
/** A group membership period. */
export type Membership = z.infer<typeof membershipSchema>;
/** A group. */
export type Group = z.infer<typeof groupSchema>;
/** A sharing event's audience. */
export type Audience = z.infer<typeof audienceSchema>;
/** A sharing event. */
export type SharingEvent = z.infer<typeof sharingEventSchema>;
/** A secret. */
export type Secret = z.infer<typeof secretSchema>;
/** Generation parameters. */
export type GenerationParameters = z.infer<typeof generationParametersSchema>;
/** The contents of `community.json`. */
export type Community = z.infer<typeof communitySchema>;
/** A chat or group-chat message. */
export type ChatMessage = z.infer<typeof chatMessageSchema>;
/** An AI-chat turn. */
export type AiMessage = z.infer<typeof aiMessageSchema>;
/** A purchased item. */
export type PurchaseItem = z.infer<typeof purchaseItemSchema>;
/** One document (a line of `documents.jsonl`). */
export type CommunityDocument = z.infer<typeof documentSchema>;
/** The document kinds. */
export type DocumentType = CommunityDocument['type'];
/** How a secret was shared, for the "by sharing kind" breakdown. */
export type SharingKind = 'person' | 'group' | 'ai';

/**
 * The sharing kind of a secret: `ai` when it was only ever told to the assistant (a dark secret),
 * `group` when any event went to a group, otherwise `person`.
 */
export function sharingKindOf(secret: Pick<Secret, 'sharingEvents'>): SharingKind {
  const kinds = secret.sharingEvents.map((event) => event.audience.kind);
  if (kinds.every((kind) => kind === 'ai')) return 'ai';
  return kinds.includes('group') ? 'group' : 'person';
}

/** The secret ids tagged anywhere in a document (messages or items), sorted and unique. */
export function secretIdsOf(doc: CommunityDocument): string[] {
  const tags = new Set<string>();
  const add = (ids: string[] | undefined) => {
    for (const id of ids ?? []) tags.add(id);
  };
  if (doc.type === 'purchase') for (const item of doc.items) add(item.secretIds);
  else if (doc.type !== 'blog') for (const message of doc.messages) add(message.secretIds);
  return [...tags].sort();
}
