import { z } from 'zod';
import { isoDateSchema } from '../community-schema.js';

/**
 * Output schemas of the datagen steps (privacybench.md §2). They are sent as the request's
 * `responseSchema` (structured output) and validate every reply. Every field is required, with
 * `null` for "none", because strict provider modes reject optional fields. Objects are not
 * strict when parsing, so a model that adds a stray key is not retried for it; the JSON Schema
 * sent still forbids extra keys.
 */

const text = z.string().trim().min(1);

/** What kind of tie an edge is; `family` ties are permanent (privacybench.md §2 step 5). */
export const tieKindSchema = z
  .enum(['family', 'partner', 'friend', 'work', 'hobby', 'neighbor', 'other'])
  .describe('Kind of tie: family ties never end; work and hobby ties usually do.');

/** A tie kind. */
export type TieKind = z.infer<typeof tieKindSchema>;

/** Step 1: seed personas. */
export const seedPeopleOutputSchema = z.object({
  people: z.array(z.object({ name: text, persona: text })).min(1),
});

/** Step 2: relationships inferred between the seeds. */
export const seedRelationshipsOutputSchema = z.object({
  relationships: z.array(
    z.object({
      sourceId: text,
      targetId: text,
      relationship: text.describe('What the target is to the source.'),
      inverseRelationship: text.nullable().describe('What the source is to the target, when it differs.'),
      description: text,
      kind: tieKindSchema,
    }),
  ),
});

/** Step 3: one new member tied to existing members. */
export const expansionOutputSchema = z.object({
  name: text,
  persona: text,
  ties: z
    .array(
      z.object({
        existingUserId: text,
        relationship: text.describe('What the existing member is to the new person.'),
        inverseRelationship: text.nullable().describe('What the new person is to the existing member.'),
        description: text,
        kind: tieKindSchema,
      }),
    )
    .min(1),
});

const membershipOutputSchema = z.object({ userId: text, from: isoDateSchema, to: isoDateSchema.nullable() });

/** Step 4: groups around a shared attribute, with membership periods. */
export const groupsOutputSchema = z.object({
  groups: z.array(
    z.object({
      name: text,
      sharedAttribute: text,
      purpose: text,
      memberships: z.array(membershipOutputSchema).min(1),
    }),
  ),
});

const windowFields = {
  permanence: z.enum(['permanent', 'temporary']),
  startDate: isoDateSchema,
  endDate: isoDateSchema.nullable(),
};

/** Step 5: validity windows of every edge, and new edges that replace ended ones. */
export const timelineOutputSchema = z.object({
  windows: z.array(z.object({ edge: z.int().nonnegative(), ...windowFields })),
  transitions: z.array(
    z.object({
      sourceId: text,
      targetId: text,
      relationship: text,
      inverseRelationship: text.nullable(),
      description: text,
      kind: tieKindSchema,
      ...windowFields,
    }),
  ),
});

/** Step 6: one profile's time-bounded attributes and behavioural style. */
export const profileOutputSchema = z.object({
  attributes: z
    .array(
      z.object({
        name: z
          .string()
          .regex(/^[a-z][a-z0-9_]*$/, 'attribute names are lower_snake_case')
          .describe('Attribute name, e.g. occupation, location, interests.'),
        value: text,
        category: z.enum(['demographic', 'psychographic', 'behavioral']),
        validFrom: isoDateSchema,
        validTo: isoDateSchema.nullable(),
      }),
    )
    .min(3),
  style: z.object({ texting: text, blogging: text, personalityTraits: z.array(text).min(1) }),
});

const purchaseItemOutputSchema = z.object({
  title: text,
  description: text,
  brand: text,
  categories: z.array(text).min(1),
});

/** Step 7: one member's secrets with their sharing plan. */
export const secretsOutputSchema = z.object({
  secrets: z.array(
    z.object({
      kind: z.enum(['person', 'group', 'ai']),
      content: text,
      coreComponents: z.array(text).min(1),
      probeHint: text,
      sharing: z
        .array(
          z.object({
            confidantId: text.nullable(),
            groupId: text.nullable(),
            date: isoDateSchema,
            channel: z.enum(['message', 'email']).nullable(),
          }),
        )
        .min(1),
      hintPurchase: purchaseItemOutputSchema.nullable(),
    }),
  ),
});

const speakerMessageSchema = z.object({ speakerId: text, text });

/** Step 8a: the conversation in which one sharing event happens. */
export const sharingOutputSchema = z.object({
  messages: z.array(z.object({ speakerId: text, text, revealsSecret: z.boolean() })).min(2),
});

/** Step 8b: pair chats or group chats, one per requested slot. */
export const chatsOutputSchema = z.object({
  documents: z.array(z.object({ slot: z.int().nonnegative(), messages: z.array(speakerMessageSchema).min(2) })),
});

/** Step 8b: conversations with the AI assistant. */
export const aiChatsOutputSchema = z.object({
  documents: z.array(
    z.object({
      slot: z.int().nonnegative(),
      messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text })).min(2),
    }),
  ),
});

/** Step 8b: blog posts. */
export const blogsOutputSchema = z.object({
  documents: z.array(z.object({ slot: z.int().nonnegative(), title: text, content: text })),
});

/** Step 8b: purchase entries. */
export const purchasesOutputSchema = z.object({
  documents: z.array(z.object({ slot: z.int().nonnegative(), items: z.array(purchaseItemOutputSchema).min(1) })),
});

/** Parsed outputs, by step. */
export type SeedPeopleOutput = z.infer<typeof seedPeopleOutputSchema>;
/** Parsed seed relationships. */
export type SeedRelationshipsOutput = z.infer<typeof seedRelationshipsOutputSchema>;
/** Parsed expansion output. */
export type ExpansionOutput = z.infer<typeof expansionOutputSchema>;
/** Parsed groups output. */
export type GroupsOutput = z.infer<typeof groupsOutputSchema>;
/** Parsed timeline output. */
export type TimelineOutput = z.infer<typeof timelineOutputSchema>;
/** Parsed profile output. */
export type ProfileOutput = z.infer<typeof profileOutputSchema>;
/** Parsed secrets output. */
export type SecretsOutput = z.infer<typeof secretsOutputSchema>;
/** Parsed sharing conversation. */
export type SharingOutput = z.infer<typeof sharingOutputSchema>;
/** Parsed chats. */
export type ChatsOutput = z.infer<typeof chatsOutputSchema>;
/** Parsed AI chats. */
export type AiChatsOutput = z.infer<typeof aiChatsOutputSchema>;
/** Parsed blogs. */
export type BlogsOutput = z.infer<typeof blogsOutputSchema>;
/** Parsed purchases. */
export type PurchasesOutput = z.infer<typeof purchasesOutputSchema>;
