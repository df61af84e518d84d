import type { ZodType } from 'zod';
import type { CommunityDocument } from '../community-schema.js';
import { isWithinWindow } from '../community-time.js';
import { activeRelationship, relationshipLabel } from '../social-graph.js';
import { addMinutes } from './calendar.js';
import {
  type AiChatsOutput,
  aiChatsOutputSchema,
  type BlogsOutput,
  blogsOutputSchema,
  type ChatsOutput,
  chatsOutputSchema,
  type PurchasesOutput,
  purchasesOutputSchema,
} from './datagen-schemas.js';
import { type DocumentBatch, type DocumentSlot, planDocuments } from './document-plan.js';
import type { Draft } from './generation-draft.js';
import type { GenerationStep } from './generation-prompts.js';
import { defineUnit, type Phase, type Unit } from './generation-unit.js';
import { MAX_MESSAGES, MESSAGE_GAP_MINUTES } from './sharing-phase.js';

/** Problems with the slot numbers of a batch answer: every slot exactly once, no others. */
export function slotProblems({ batch, slots }: { batch: DocumentBatch; slots: readonly number[] }): string[] {
  const problems: string[] = [];
  for (const { slot } of batch.slots) {
    const count = slots.filter((given) => given === slot).length;
    if (count !== 1) problems.push(`give exactly one document for slot ${slot}, not ${count}`);
  }
  for (const given of new Set(slots)) {
    if (!batch.slots.some(({ slot }) => slot === given)) problems.push(`there is no slot ${given}`);
  }
  return problems;
}

function describePerson(draft: Draft, userId: string, ownerId: string, at: string) {
  const user = draft.community.users.find((candidate) => candidate.userId === userId);
  const edge = activeRelationship({ community: draft.community, a: ownerId, b: userId, at });
  return {
    userId,
    name: user?.name ?? userId,
    texting: user?.style?.texting ?? '',
    relationshipToOwner: edge === undefined ? null : relationshipLabel({ relationship: edge, selfId: ownerId }),
  };
}

function batchTask(draft: Draft, batch: DocumentBatch) {
  const owner = draft.community.users.find((user) => user.userId === batch.userId);
  const midpoint = batch.slots[Math.floor(batch.slots.length / 2)]?.time ?? `${batch.window.from}T12:00:00Z`;
  const current = Object.fromEntries(
    Object.entries(owner?.attributes ?? {}).flatMap(([name, values]) => {
      const value = values.find((candidate) =>
        isWithinWindow({ from: candidate.validFrom, to: candidate.validTo, at: midpoint }),
      );
      return value === undefined ? [] : [[name, value.value]];
    }),
  );
  return {
    type: batch.type,
    window: batch.window,
    owner: {
      userId: batch.userId,
      name: owner?.name ?? batch.userId,
      persona: owner?.persona ?? '',
      attributes: current,
      style: owner?.style ?? null,
    },
    documents: batch.slots.map((slot) => {
      const group = draft.community.groups.find((candidate) => candidate.groupId === slot.groupId);
      return {
        slot: slot.slot,
        date: slot.date,
        noise: slot.noise,
        revealAttribute: slot.revealAttribute,
        ...(batch.type === 'chat'
          ? {
              channel: slot.channel,
              counterpart:
                slot.counterpartId === null ? null : describePerson(draft, slot.counterpartId, batch.userId, slot.time),
            }
          : {}),
        ...(batch.type === 'group-chat' && group !== undefined
          ? {
              group: {
                groupId: group.groupId,
                name: group.name,
                purpose: group.purpose,
                members: slot.participants.map((userId) => describePerson(draft, userId, batch.userId, slot.time)),
              },
            }
          : {}),
      };
    }),
  };
}

function baseOf(batch: DocumentBatch, slot: DocumentSlot) {
  return {
    docId: `d-${batch.key.slice('docs/'.length).replaceAll('/', '-')}-${slot.slot}`,
    time: slot.time,
    participants: slot.participants,
    ownerId: batch.userId,
    isNoise: slot.noise,
    ...(slot.revealAttribute === null ? {} : { revealedAttributes: [slot.revealAttribute.name] }),
  };
}

function messageProblems(batch: DocumentBatch, documents: ChatsOutput['documents']): string[] {
  const problems: string[] = [];
  for (const doc of documents) {
    const slot = batch.slots.find((candidate) => candidate.slot === doc.slot);
    if (slot === undefined) continue;
    if (doc.messages.length > MAX_MESSAGES) problems.push(`slot ${doc.slot}: use at most ${MAX_MESSAGES} messages`);
    doc.messages.forEach((message, index) => {
      if (!slot.participants.includes(message.speakerId)) {
        problems.push(
          `slot ${doc.slot}, message ${index + 1}: speaker '${message.speakerId}' is not one of ${slot.participants.join(', ')}`,
        );
      }
    });
  }
  return problems;
}

function addDocument(draft: Draft, batch: DocumentBatch, doc: CommunityDocument): void {
  draft.documents.push(doc);
  draft.owners.documents[doc.docId] = batch.key;
}

type SlotAnswer = { slot: number };

/**
 * A unit whose answer gives one document per slot of the batch: the slot numbers are checked
 * (plus any `extraProblems`), and each slot's answer becomes one document on top of its base.
 */
function slotUnit<T extends { documents: readonly SlotAnswer[] }>(options: {
  draft: Draft;
  batch: DocumentBatch;
  step: GenerationStep;
  schema: ZodType<T>;
  extraProblems?: (documents: T['documents']) => string[];
  toDocument: (
    answer: T['documents'][number],
    slot: DocumentSlot,
    base: ReturnType<typeof baseOf>,
  ) => CommunityDocument;
}): Unit {
  const { draft, batch, extraProblems, toDocument } = options;
  return defineUnit<T>({
    key: batch.key,
    step: options.step,
    schema: options.schema,
    task: batchTask(draft, batch),
    validate: (output) => [
      ...slotProblems({ batch, slots: output.documents.map((doc) => doc.slot) }),
      ...(extraProblems?.(output.documents) ?? []),
    ],
    apply: (target, output) => {
      for (const slot of batch.slots) {
        const answer = output.documents.find((doc) => doc.slot === slot.slot);
        if (answer === undefined) continue;
        addDocument(target, batch, toDocument(answer, slot, baseOf(batch, slot)));
      }
    },
  });
}

function chatUnit(draft: Draft, batch: DocumentBatch): Unit {
  return slotUnit<ChatsOutput>({
    draft,
    batch,
    step: batch.type === 'chat' ? 'chats' : 'group-chats',
    schema: chatsOutputSchema,
    extraProblems: (documents) => messageProblems(batch, documents),
    toDocument: (answer, slot, base) => {
      const messages = answer.messages.map((message, index) => ({
        messageId: `m${index + 1}`,
        speakerId: message.speakerId,
        text: message.text,
        time: addMinutes(slot.time, index * MESSAGE_GAP_MINUTES),
      }));
      return batch.type === 'chat'
        ? { ...base, type: 'chat', channel: slot.channel ?? 'message', messages }
        : { ...base, type: 'group-chat', groupId: slot.groupId ?? '', messages };
    },
  });
}

function aiChatUnit(draft: Draft, batch: DocumentBatch): Unit {
  return slotUnit<AiChatsOutput>({
    draft,
    batch,
    step: 'ai-chats',
    schema: aiChatsOutputSchema,
    extraProblems: (documents) =>
      documents.flatMap((doc) => [
        ...(doc.messages[0]?.role === 'user' ? [] : [`slot ${doc.slot}: the owner ("user") speaks first`]),
        ...(doc.messages.length > MAX_MESSAGES ? [`slot ${doc.slot}: use at most ${MAX_MESSAGES} turns`] : []),
      ]),
    toDocument: (answer, _slot, base) => ({
      ...base,
      type: 'ai-chat',
      messages: answer.messages.map((message, index) => ({
        messageId: `m${index + 1}`,
        role: message.role,
        content: message.text,
      })),
    }),
  });
}

function blogUnit(draft: Draft, batch: DocumentBatch): Unit {
  return slotUnit<BlogsOutput>({
    draft,
    batch,
    step: 'blogs',
    schema: blogsOutputSchema,
    toDocument: (answer, _slot, base) => ({ ...base, type: 'blog', title: answer.title, content: answer.content }),
  });
}

function purchaseUnit(draft: Draft, batch: DocumentBatch): Unit {
  return slotUnit<PurchasesOutput>({
    draft,
    batch,
    step: 'purchases',
    schema: purchasesOutputSchema,
    toDocument: (answer, _slot, base) => ({
      ...base,
      type: 'purchase',
      items: answer.items.map((item) => ({ ...item, categories: [...item.categories] })),
    }),
  });
}

/** The unit that writes one batch of documents. */
function batchUnit(draft: Draft, batch: DocumentBatch): Unit {
  if (batch.type === 'ai-chat') return aiChatUnit(draft, batch);
  if (batch.type === 'blog') return blogUnit(draft, batch);
  if (batch.type === 'purchase') return purchaseUnit(draft, batch);
  return chatUnit(draft, batch);
}

/** Step 8b: the mundane documents of every member and time step, batched per kind. */
export const documentsPhase: Phase = {
  name: 'documents',
  units: (draft) => planDocuments(draft).map((batch) => batchUnit(draft, batch)),
};
