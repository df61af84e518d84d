import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  audienceSchema,
  groupSchema,
  purchaseItemSchema,
  relationshipSchema,
  secretSchema,
  userSchema,
} from './community-schema.js';

/** Conversation topics of mundane pair chats. */
export const chatTopicSchema = z.enum(['casual', 'work', 'family', 'running', 'landlord', 'business', 'choir']);

const line = z.string().min(1);
// Our own authoring data stays strict: the community shapes, without their kept-unknown-fields refinement.
const hintItemSchema = z.strictObject(purchaseItemSchema.shape).omit({ secretIds: true });

const sharingScriptSchema = z.strictObject({
  eventId: z.string().min(1),
  audience: audienceSchema,
  start: z.string().min(1),
  channel: z.enum(['message', 'email', 'group', 'ai']),
  lines: z.array(z.strictObject({ speakerId: z.string().min(1), text: line, reveals: z.boolean().optional() })).min(1),
});

/**
 * `starter-authoring.json`: everything the starter community is built from (privacybench.md §2,
 * "Starter community"), as data beside this file, validated when loaded. People and secrets use
 * the community schema's own shapes; the builder (`build-starter-community.ts`) turns them into
 * `community.json` and the documents.
 */
export const starterAuthoringSchema = z.strictObject({
  description: z.string(),
  users: z.array(z.strictObject(userSchema.shape)).min(1),
  groups: z.array(groupSchema),
  ties: z.array(
    z.strictObject({
      relationship: relationshipSchema,
      chatsPerYear: z.number().int().nonnegative(),
      topics: z.array(chatTopicSchema).min(1),
    }),
  ),
  /** Sentences that reveal an attribute value in the owner's voice; `{value}` is the value, `{a}` its article. */
  revealLines: z.record(z.string().min(1), z.array(line).min(1)),
  secrets: z.array(
    z
      .strictObject(secretSchema.shape)
      .omit({ sharingEvents: true })
      .extend({
        scripts: z.array(sharingScriptSchema).min(1),
        hints: z.array(z.strictObject({ time: z.string().min(1), items: z.array(hintItemSchema).min(1) })).optional(),
      }),
  ),
  chatTemplates: z.array(
    z.strictObject({
      topic: chatTopicSchema,
      lines: z.array(z.strictObject({ who: z.enum(['a', 'b']), text: line })).min(1),
    }),
  ),
  groupTemplates: z.record(z.string().min(1), z.array(z.array(line).min(1)).min(1)),
  aiTemplates: z.array(z.strictObject({ ask: line, answer: line })).min(1),
  blogTemplates: z.array(z.strictObject({ title: line, paragraphs: z.array(line).min(1) })).min(1),
  purchaseCatalog: z.array(hintItemSchema).min(1),
  slotValues: z.record(z.string().min(1), z.array(line).min(1)),
  interestItems: z.record(z.string().min(1), hintItemSchema),
});

/** The starter authoring data as validated. */
export type StarterAuthoring = z.infer<typeof starterAuthoringSchema>;

/** Reads and validates `starter-authoring.json` (or another file of its shape). */
export function loadStarterAuthoring(
  url: URL = new URL('./starter-authoring.json', import.meta.url),
): StarterAuthoring {
  return starterAuthoringSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
}

/** The starter community's authoring data, loaded once. */
export const STARTER_AUTHORING: StarterAuthoring = loadStarterAuthoring();
