import type { CommunityDocument, Secret, SharingEvent } from '../community-schema.js';
import { activeRelationship, membersAt, relationshipLabel } from '../social-graph.js';
import { addMinutes, instantOn } from './calendar.js';
import { type SharingOutput, sharingOutputSchema } from './datagen-schemas.js';
import type { Draft } from './generation-draft.js';
import { defineUnit, type Phase } from './generation-unit.js';
import { sharingUnitKey } from './issue-owner.js';
import { seededFraction } from './secrets-phase.js';

/** Minutes between consecutive messages of a generated conversation. */
export const MESSAGE_GAP_MINUTES = 2;
/** At most this many messages per generated conversation (keeps a conversation inside its day). */
export const MAX_MESSAGES = 40;
/** The speaker id of the assistant in AI chats. */
export const ASSISTANT_SPEAKER = 'assistant';

/** A seeded start time between 09:00 and 18:59 on `date`. */
export function seededStart({ date, parts }: { date: string; parts: ReadonlyArray<string | number> }): string {
  return instantOn(date, 9 * 60 + Math.floor(seededFraction(parts) * 600));
}

type Setting = {
  type: 'chat' | 'group-chat' | 'ai-chat';
  time: string;
  participants: string[];
  groupId: string | null;
};

function settingOf(draft: Draft, secret: Secret, event: SharingEvent): Setting {
  const time = seededStart({ date: event.sharedAt.slice(0, 10), parts: [draft.options.seed, 'share', event.eventId] });
  const audience = event.audience;
  if (audience.kind === 'users') {
    return { type: 'chat', time, participants: [secret.ownerId, ...audience.userIds], groupId: null };
  }
  if (audience.kind === 'ai') return { type: 'ai-chat', time, participants: [secret.ownerId], groupId: null };
  const group = draft.community.groups.find((candidate) => candidate.groupId === audience.groupId);
  const members = group === undefined ? [] : membersAt({ group, at: time }).filter((id) => id !== secret.ownerId);
  return { type: 'group-chat', time, participants: [secret.ownerId, ...members], groupId: audience.groupId };
}

/** Problems of a sharing conversation that the community checks do not see. */
export function sharingProblems({
  output,
  ownerId,
  speakers,
}: {
  output: SharingOutput;
  ownerId: string;
  speakers: readonly string[];
}): string[] {
  const problems: string[] = [];
  if (output.messages.length > MAX_MESSAGES) problems.push(`use at most ${MAX_MESSAGES} messages`);
  output.messages.forEach((message, index) => {
    if (!speakers.includes(message.speakerId)) {
      problems.push(`message ${index + 1}: speaker '${message.speakerId}' is not one of ${speakers.join(', ')}`);
    }
  });
  const firstOwnerReveal = output.messages.findIndex(
    (message) => message.revealsSecret && message.speakerId === ownerId,
  );
  if (firstOwnerReveal === -1) {
    problems.push(`the owner (${ownerId}) must reveal the secret in a message with revealsSecret true`);
  } else {
    const early = output.messages.findIndex((message) => message.revealsSecret);
    if (early < firstOwnerReveal) problems.push(`message ${early + 1} reveals the secret before the owner does`);
  }
  return problems;
}

function buildDocument({
  docId,
  secret,
  setting,
  output,
}: {
  docId: string;
  secret: Secret;
  setting: Setting;
  output: SharingOutput;
}): { doc: CommunityDocument; firstReveal: string } {
  const base = {
    docId,
    time: setting.time,
    participants: setting.participants,
    ownerId: secret.ownerId,
    isNoise: false,
  };
  const tags = (reveals: boolean) => (reveals ? { secretIds: [secret.secretId] } : {});
  if (setting.type === 'ai-chat') {
    const doc: CommunityDocument = {
      ...base,
      type: 'ai-chat',
      messages: output.messages.map((message, index) => ({
        messageId: `m${index + 1}`,
        role: message.speakerId === ASSISTANT_SPEAKER ? 'assistant' : 'user',
        content: message.text,
        ...tags(message.revealsSecret),
      })),
    };
    return { doc, firstReveal: setting.time };
  }
  const messages = output.messages.map((message, index) => ({
    messageId: `m${index + 1}`,
    speakerId: message.speakerId,
    text: message.text,
    time: addMinutes(setting.time, index * MESSAGE_GAP_MINUTES),
    ...tags(message.revealsSecret),
  }));
  const reveal = messages.find((message) => message.speakerId === secret.ownerId && message.secretIds !== undefined);
  const firstReveal = reveal?.time ?? setting.time;
  const doc: CommunityDocument =
    setting.type === 'chat'
      ? { ...base, type: 'chat', channel: 'message', messages }
      : { ...base, type: 'group-chat', groupId: setting.groupId ?? '', messages };
  return { doc, firstReveal };
}

/** Step 8a: one conversation per sharing event, the secret tagged where it is revealed. */
export const sharingPhase: Phase = {
  name: 'sharing',
  units: (draft) =>
    draft.community.secrets.flatMap((secret) =>
      secret.sharingEvents.map((event) => {
        const key = sharingUnitKey(event.eventId);
        const setting = settingOf(draft, secret, event);
        const channel = draft.eventChannels[event.eventId] ?? 'message';
        const speakers = setting.type === 'ai-chat' ? [secret.ownerId, ASSISTANT_SPEAKER] : setting.participants;
        const describe = (userId: string) => {
          const user = draft.community.users.find((candidate) => candidate.userId === userId);
          const edge = activeRelationship({
            community: draft.community,
            a: secret.ownerId,
            b: userId,
            at: setting.time,
          });
          return {
            userId,
            name: user?.name ?? userId,
            texting: user?.style?.texting ?? '',
            relationshipToOwner:
              edge === undefined ? null : relationshipLabel({ relationship: edge, selfId: secret.ownerId }),
          };
        };
        const group = draft.community.groups.find((candidate) => candidate.groupId === setting.groupId);
        return defineUnit<SharingOutput>({
          key,
          step: 'sharing',
          schema: sharingOutputSchema,
          task: {
            eventId: event.eventId,
            type: setting.type,
            channel: setting.type === 'chat' ? channel : null,
            date: setting.time.slice(0, 10),
            owner: {
              ...describe(secret.ownerId),
              persona: draft.community.users.find((u) => u.userId === secret.ownerId)?.persona ?? '',
            },
            participants: setting.participants.filter((id) => id !== secret.ownerId).map(describe),
            group: group === undefined ? null : { name: group.name, purpose: group.purpose },
            secret: { content: secret.content, coreComponents: secret.coreComponents },
          },
          validate: (output) => sharingProblems({ output, ownerId: secret.ownerId, speakers }),
          apply: (target, output) => {
            const docId = `share-${event.eventId}`;
            const { doc, firstReveal } = buildDocument({ docId, secret, setting, output });
            if (doc.type === 'chat') doc.channel = channel;
            target.documents.push(doc);
            target.owners.documents[docId] = key;
            const stored = target.community.secrets
              .find((candidate) => candidate.secretId === secret.secretId)
              ?.sharingEvents.find((candidate) => candidate.eventId === event.eventId);
            if (stored !== undefined) {
              stored.sharedAt = firstReveal;
              stored.docIds = [docId];
            }
          },
        });
      }),
    ),
};
