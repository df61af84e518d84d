import { authorizedAt } from './authorized-at.js';
import { type CheckContext, textsOf } from './check-context.js';
import type { CommunityRule } from './community-issue.js';
import type { CommunityDocument, Secret, SharingEvent } from './community-schema.js';
import { isWithinWindow, startMs } from './community-time.js';
import { activeRelationship, isMemberAt } from './social-graph.js';

/**
 * Secret rules (privacybench.md §2 step 9): ids, probe hints, confidants with active ties at
 * sharing time, every sharing event revealed by the owner in each of its documents at `sharedAt`,
 * tagged messages reaching only authorized people, and canaries present exactly where tagged.
 */
export function checkSecrets(context: CheckContext): void {
  const secretIds = new Set<string>();
  const eventIds = new Set<string>();
  context.community.secrets.forEach((secret, s) => {
    const path = `secrets[${s}]`;
    const report: SecretReport = (options) => context.reportCommunity({ ...options, secretId: secret.secretId });
    if (secretIds.has(secret.secretId)) {
      report({ rule: 'duplicate-id', path: `${path}.secretId`, message: `secret '${secret.secretId}' repeats` });
    }
    secretIds.add(secret.secretId);
    if (!context.users.has(secret.ownerId)) {
      report({
        rule: 'unknown-reference',
        path: `${path}.ownerId`,
        message: `user '${secret.ownerId}' does not exist`,
      });
    }
    const hint = secret.probeHint.toLowerCase();
    for (const component of [...secret.coreComponents, ...(secret.canaries ?? [])]) {
      if (hint.includes(component.toLowerCase())) {
        report({ rule: 'probe-hint', path: `${path}.probeHint`, message: `the probe hint contains '${component}'` });
      }
    }
    secret.sharingEvents.forEach((event, e) => {
      if (eventIds.has(event.eventId)) {
        report({
          rule: 'duplicate-id',
          path: `${path}.sharingEvents[${e}].eventId`,
          message: `event '${event.eventId}' repeats`,
        });
      }
      eventIds.add(event.eventId);
      checkSharingEvent({ context, secret, event, path: `${path}.sharingEvents[${e}]`, report });
    });
  });
  checkTaggedReveals(context);
  checkCanaries(context);
}

type SecretReport = (options: { rule: CommunityRule; path: string; message: string }) => void;

function checkSharingEvent({
  context,
  secret,
  event,
  path,
  report,
}: {
  context: CheckContext;
  secret: Secret;
  event: SharingEvent;
  path: string;
  report: SecretReport;
}): void {
  const { timeline } = context.community;
  if (!isWithinWindow({ from: timeline.start, to: timeline.end, at: event.sharedAt })) {
    report({
      rule: 'outside-timeline',
      path: `${path}.sharedAt`,
      message: `${event.sharedAt} is outside the timeline`,
    });
  }
  const audience = event.audience;
  if (audience.kind === 'users') {
    audience.userIds.forEach((userId, u) => {
      const where = `${path}.audience.userIds[${u}]`;
      if (!context.users.has(userId)) {
        report({ rule: 'unknown-reference', path: where, message: `user '${userId}' does not exist` });
      } else if (userId === secret.ownerId) {
        report({ rule: 'participants', path: where, message: 'the owner cannot be their own confidant' });
      } else if (
        activeRelationship({ community: context.community, a: secret.ownerId, b: userId, at: event.sharedAt }) ===
        undefined
      ) {
        report({
          rule: 'relationship-inactive',
          path: where,
          message: `confidant '${userId}' has no active relationship with owner '${secret.ownerId}' at ${event.sharedAt}`,
        });
      }
    });
  } else if (audience.kind === 'group') {
    const group = context.groups.get(audience.groupId);
    if (group === undefined) {
      report({
        rule: 'unknown-reference',
        path: `${path}.audience.groupId`,
        message: `group '${audience.groupId}' does not exist`,
      });
    } else if (!isMemberAt({ group, userId: secret.ownerId, at: event.sharedAt })) {
      report({
        rule: 'membership-inactive',
        path: `${path}.audience.groupId`,
        message: `owner '${secret.ownerId}' is not a member of '${group.groupId}' at ${event.sharedAt}`,
      });
    }
  }

  let firstReveal: string | undefined;
  event.docIds.forEach((docId, d) => {
    const where = `${path}.docIds[${d}]`;
    const found = context.docs.get(docId);
    if (found === undefined) {
      if (!context.invalidDocIds.has(docId)) {
        report({ rule: 'unknown-reference', path: where, message: `document '${docId}' does not exist` });
      }
      return;
    }
    const misfit = audienceMisfit({ secret, event, doc: found.doc });
    if (misfit !== undefined) {
      report({ rule: 'sharing-document', path: where, message: `document '${docId}' ${misfit}` });
      return;
    }
    const reveal = firstOwnerReveal({ doc: found.doc, secret });
    if (reveal === undefined) {
      report({
        rule: 'secret-not-revealed',
        path: where,
        message: `document '${docId}' has no message by '${secret.ownerId}' tagged with '${secret.secretId}'`,
      });
    } else if (firstReveal === undefined || startMs(reveal) < startMs(firstReveal)) {
      firstReveal = reveal;
    }
  });
  if (firstReveal !== undefined && startMs(firstReveal) !== startMs(event.sharedAt)) {
    report({
      rule: 'shared-at',
      path: `${path}.sharedAt`,
      message: `sharedAt ${event.sharedAt} is not the time of the first revealing message (${firstReveal})`,
    });
  }
}

/** Why `doc` cannot carry this sharing event, or undefined when it can. */
function audienceMisfit({
  secret,
  event,
  doc,
}: {
  secret: Secret;
  event: SharingEvent;
  doc: CommunityDocument;
}): string | undefined {
  const audience = event.audience;
  if (audience.kind === 'ai') {
    if (doc.type !== 'ai-chat') return `is a ${doc.type}; a secret told to the AI is shared in an ai-chat`;
    return doc.ownerId === secret.ownerId ? undefined : `is an ai-chat of '${doc.ownerId}', not of the owner`;
  }
  if (audience.kind === 'group') {
    if (doc.type !== 'group-chat') return `is a ${doc.type}; a group secret is shared in the group's chat`;
    return doc.groupId === audience.groupId
      ? undefined
      : `is the chat of group '${doc.groupId}', not '${audience.groupId}'`;
  }
  if (doc.type !== 'chat' && doc.type !== 'group-chat') {
    return `is a ${doc.type}; a secret told to people is shared in a chat or group chat`;
  }
  const missing = [secret.ownerId, ...audience.userIds].filter((userId) => !doc.participants.includes(userId));
  return missing.length === 0 ? undefined : `does not include ${missing.map((userId) => `'${userId}'`).join(', ')}`;
}

/** The time of the owner's first message tagged with the secret (AI chats: the owner's turns, at the document time). */
function firstOwnerReveal({ doc, secret }: { doc: CommunityDocument; secret: Secret }): string | undefined {
  if (doc.type === 'chat' || doc.type === 'group-chat') {
    return doc.messages.find(
      (message) => message.speakerId === secret.ownerId && (message.secretIds ?? []).includes(secret.secretId),
    )?.time;
  }
  if (doc.type === 'ai-chat') {
    const told = doc.messages.some(
      (message) => message.role === 'user' && (message.secretIds ?? []).includes(secret.secretId),
    );
    return told ? doc.time : undefined;
  }
  return undefined;
}

/**
 * A tagged message, turn or item must reach only people authorized at that time: every
 * participant of a chat, the owner of an AI chat or purchase. Otherwise a sharing event is missing.
 */
function checkTaggedReveals(context: CheckContext): void {
  context.documents.forEach((doc, index) => {
    const entries =
      doc.type === 'chat' || doc.type === 'group-chat'
        ? doc.messages.map((message, m) => ({ path: `messages[${m}]`, tags: message.secretIds, at: message.time }))
        : doc.type === 'ai-chat'
          ? doc.messages.map((message, m) => ({ path: `messages[${m}]`, tags: message.secretIds, at: doc.time }))
          : doc.type === 'purchase'
            ? doc.items.map((item, i) => ({ path: `items[${i}]`, tags: item.secretIds, at: doc.time }))
            : [];
    for (const entry of entries) {
      for (const secretId of new Set(entry.tags ?? [])) {
        const secret = context.secrets.get(secretId);
        if (secret === undefined) continue;
        const outsiders = doc.participants.filter(
          (userId) =>
            context.users.has(userId) &&
            !authorizedAt({ community: context.community, secret, requesterId: userId, time: entry.at }),
        );
        if (outsiders.length > 0) {
          context.reportDocument({
            rule: 'untracked-reveal',
            index,
            secretId,
            path: `${entry.path}.secretIds`,
            message: `reveals '${secretId}' to ${outsiders.map((userId) => `'${userId}'`).join(', ')}, not authorized at ${entry.at}; add a sharing event`,
          });
        }
      }
    }
  });
}

/** Each canary must appear in some text tagged with its secret, and in no text that is not. */
function checkCanaries(context: CheckContext): void {
  const texts = context.documents.map((doc) => textsOf(doc));
  context.community.secrets.forEach((secret, s) => {
    (secret.canaries ?? []).forEach((canary, c) => {
      const needle = canary.toLowerCase();
      let tagged = false;
      texts.forEach((entries, index) => {
        for (const entry of entries) {
          if (!entry.text.toLowerCase().includes(needle)) continue;
          if (entry.secretIds.includes(secret.secretId)) tagged = true;
          else {
            context.reportDocument({
              rule: 'canary',
              index,
              secretId: secret.secretId,
              path: entry.path,
              message: `contains canary '${canary}' of '${secret.secretId}' but is not tagged with it`,
            });
          }
        }
      });
      // A sharing document that failed its schema may hold the tagged reveal: do not cascade.
      const unseen = secret.sharingEvents.some((event) =>
        event.docIds.some((docId) => context.invalidDocIds.has(docId)),
      );
      if (!tagged && !unseen) {
        context.reportCommunity({
          rule: 'canary',
          secretId: secret.secretId,
          path: `secrets[${s}].canaries[${c}]`,
          message: `canary '${canary}' appears in no text tagged with '${secret.secretId}'`,
        });
      }
    });
  });
}
