import { type CheckContext, createCheckContext } from './check-context.js';
import { checkSecrets } from './check-secrets.js';
import type { CommunityIssue, CommunityRule } from './community-issue.js';
import type { Community, CommunityDocument } from './community-schema.js';
import { endMs, isWithinWindow, startMs } from './community-time.js';
import { activeRelationship, isMemberAt } from './social-graph.js';

/**
 * The rule checks of privacybench.md §2 that apply to stored data, over a community that already
 * passed its schemas. Returns every inconsistency (empty when the community is sound), each with
 * its file, line, path and rule id, so the generator can reuse it to decide what to regenerate.
 *
 * `lines` gives each document's line in `documents.jsonl` (default: index + 1), and
 * `invalidDocIds` names documents that exist but failed their schema, so references to them are
 * not reported a second time as dangling.
 */
export function checkCommunity({
  community,
  documents,
  lines,
  invalidDocIds,
}: {
  community: Community;
  documents: readonly CommunityDocument[];
  lines?: readonly number[];
  invalidDocIds?: ReadonlySet<string>;
}): CommunityIssue[] {
  const context = createCheckContext({
    community,
    documents,
    ...(lines === undefined ? {} : { lines }),
    ...(invalidDocIds === undefined ? {} : { invalidDocIds }),
  });
  checkPeople(context);
  checkDocuments(context);
  checkSecrets(context);
  return context.issues;
}

function checkPeople(context: CheckContext): void {
  const { community, reportCommunity } = context;
  if (startMs(community.timeline.start) > endMs(community.timeline.end)) {
    reportCommunity({ rule: 'time-order', path: 'timeline', message: 'the timeline ends before it starts' });
  }
  const userIds = new Set<string>();
  community.users.forEach((user, u) => {
    if (userIds.has(user.userId)) {
      reportCommunity({ rule: 'duplicate-id', path: `users[${u}].userId`, message: `user '${user.userId}' repeats` });
    }
    userIds.add(user.userId);
    for (const [name, values] of Object.entries(user.attributes)) {
      values.forEach((value, v) => {
        if (value.validTo !== null && value.validTo < value.validFrom) {
          reportCommunity({
            rule: 'time-order',
            path: `users[${u}].attributes.${name}[${v}]`,
            message: `validTo ${value.validTo} is before validFrom ${value.validFrom}`,
          });
        }
      });
    }
  });
  const unknownUser = (path: string, userId: string) => {
    if (!context.users.has(userId)) {
      reportCommunity({ rule: 'unknown-reference', path, message: `user '${userId}' does not exist` });
    }
  };

  const groupIds = new Set<string>();
  community.groups.forEach((group, g) => {
    if (groupIds.has(group.groupId)) {
      reportCommunity({
        rule: 'duplicate-id',
        path: `groups[${g}].groupId`,
        message: `group '${group.groupId}' repeats`,
      });
    }
    groupIds.add(group.groupId);
    group.memberships.forEach((membership, m) => {
      const path = `groups[${g}].memberships[${m}]`;
      unknownUser(`${path}.userId`, membership.userId);
      if (membership.to !== null && membership.to < membership.from) {
        reportCommunity({ rule: 'time-order', path, message: `membership ends (${membership.to}) before it starts` });
      }
      const overlapping = group.memberships.findIndex(
        (other, o) =>
          o < m &&
          other.userId === membership.userId &&
          (other.to === null || other.to >= membership.from) &&
          (membership.to === null || membership.to >= other.from),
      );
      if (overlapping >= 0) {
        reportCommunity({
          rule: 'time-order',
          path,
          message: `overlaps memberships[${overlapping}] of the same user '${membership.userId}'`,
        });
      }
    });
  });

  community.relationships.forEach((edge, r) => {
    const path = `relationships[${r}]`;
    unknownUser(`${path}.sourceId`, edge.sourceId);
    unknownUser(`${path}.targetId`, edge.targetId);
    if (edge.sourceId === edge.targetId) {
      reportCommunity({ rule: 'participants', path, message: 'a relationship needs two different members' });
    }
    if (edge.endDate !== null && edge.endDate < edge.startDate) {
      reportCommunity({
        rule: 'time-order',
        path,
        message: `ends (${edge.endDate}) before it starts (${edge.startDate})`,
      });
    }
    if (edge.permanence === 'permanent' && edge.endDate !== null) {
      reportCommunity({ rule: 'time-order', path: `${path}.endDate`, message: 'a permanent relationship never ends' });
    }
  });
}

function checkDocuments(context: CheckContext): void {
  const { community, reportDocument } = context;
  const seen = new Set<string>();
  context.documents.forEach((doc, index) => {
    const report: Report = (options) => reportDocument({ ...options, index });
    if (seen.has(doc.docId))
      report({ rule: 'duplicate-id', path: 'docId', message: `document '${doc.docId}' repeats` });
    seen.add(doc.docId);
    if (!isWithinWindow({ from: community.timeline.start, to: community.timeline.end, at: doc.time })) {
      report({ rule: 'outside-timeline', path: 'time', message: `${doc.time} is outside the timeline` });
    }
    doc.participants.forEach((userId, p) => {
      if (!context.users.has(userId)) {
        report({ rule: 'unknown-reference', path: `participants[${p}]`, message: `user '${userId}' does not exist` });
      } else if (doc.participants.indexOf(userId) !== p) {
        report({ rule: 'participants', path: `participants[${p}]`, message: `user '${userId}' is listed twice` });
      }
    });
    if (!context.users.has(doc.ownerId)) {
      report({ rule: 'unknown-reference', path: 'ownerId', message: `user '${doc.ownerId}' does not exist` });
    } else if (!doc.participants.includes(doc.ownerId)) {
      report({ rule: 'participants', path: 'ownerId', message: `owner '${doc.ownerId}' is not a participant` });
    }
    checkParticipantsFit(context, doc, report);
    checkMessages(context, doc, report);
    if (doc.isNoise && doc.type !== 'blog') {
      const tagged = doc.type === 'purchase' ? doc.items : doc.messages;
      tagged.forEach((entry, e) => {
        if ((entry.secretIds ?? []).length > 0) {
          const where = doc.type === 'purchase' ? 'items' : 'messages';
          report({
            rule: 'noise-tagged',
            path: `${where}[${e}].secretIds`,
            message: 'a noise document carries a secret',
          });
        }
      });
    }
    const owner = context.users.get(doc.ownerId);
    (doc.revealedAttributes ?? []).forEach((name, a) => {
      if (owner === undefined) return;
      const values = owner.attributes[name];
      if (values === undefined) {
        report({
          rule: 'attribute',
          path: `revealedAttributes[${a}]`,
          message: `'${doc.ownerId}' has no attribute '${name}'`,
        });
      } else if (!values.some((value) => isWithinWindow({ from: value.validFrom, to: value.validTo, at: doc.time }))) {
        report({
          rule: 'attribute',
          path: `revealedAttributes[${a}]`,
          message: `no value of '${name}' of '${doc.ownerId}' is valid at ${doc.time}`,
        });
      }
    });
  });
}

type Report = (options: { rule: CommunityRule; path: string; message: string }) => void;

/** Pair chats need an active relationship, group chats current members, owner-only kinds just the owner. */
function checkParticipantsFit(context: CheckContext, doc: CommunityDocument, report: Report): void {
  const known = doc.participants.filter((userId) => context.users.has(userId));
  if (doc.type === 'chat') {
    if (doc.participants.length !== 2) {
      report({
        rule: 'participants',
        path: 'participants',
        message: `a chat has 2 participants, not ${doc.participants.length}`,
      });
      return;
    }
    const [a, b] = doc.participants as [string, string];
    if (known.length !== 2) return;
    const last = doc.messages.at(-1)?.time ?? doc.time;
    for (const at of new Set([doc.time, last])) {
      if (activeRelationship({ community: context.community, a, b, at }) === undefined) {
        report({
          rule: 'relationship-inactive',
          path: 'participants',
          message: `'${a}' and '${b}' have no active relationship at ${at}`,
        });
      }
    }
  } else if (doc.type === 'group-chat') {
    const group = context.groups.get(doc.groupId);
    if (group === undefined) {
      report({ rule: 'unknown-reference', path: 'groupId', message: `group '${doc.groupId}' does not exist` });
      return;
    }
    if (doc.participants.length < 2) {
      report({ rule: 'participants', path: 'participants', message: 'a group chat has at least 2 participants' });
    }
    doc.participants.forEach((userId, p) => {
      if (context.users.has(userId) && !isMemberAt({ group, userId, at: doc.time })) {
        report({
          rule: 'membership-inactive',
          path: `participants[${p}]`,
          message: `'${userId}' is not a member of '${group.groupId}' at ${doc.time}`,
        });
      }
    });
  } else if (doc.participants.length !== 1 || doc.participants[0] !== doc.ownerId) {
    report({
      rule: 'participants',
      path: 'participants',
      message: `a ${doc.type} belongs to its owner alone: participants must be ['${doc.ownerId}']`,
    });
  }
}

/** Message ids, speakers, send times and secret references. */
function checkMessages(context: CheckContext, doc: CommunityDocument, report: Report): void {
  const timeline = context.community.timeline;
  const checkTags = (path: string, secretIds: string[] | undefined) => {
    (secretIds ?? []).forEach((secretId, s) => {
      if (!context.secrets.has(secretId)) {
        report({
          rule: 'unknown-reference',
          path: `${path}.secretIds[${s}]`,
          message: `secret '${secretId}' does not exist`,
        });
      }
    });
  };
  if (doc.type === 'blog') return;
  if (doc.type === 'purchase') {
    doc.items.forEach((item, i) => {
      checkTags(`items[${i}]`, item.secretIds);
    });
    return;
  }
  const ids = new Set<string>();
  doc.messages.forEach((message, m) => {
    const path = `messages[${m}]`;
    if (ids.has(message.messageId)) {
      report({ rule: 'duplicate-id', path: `${path}.messageId`, message: `message '${message.messageId}' repeats` });
    }
    ids.add(message.messageId);
    checkTags(path, message.secretIds);
  });
  if (doc.type === 'ai-chat') return;
  let previous = doc.time;
  doc.messages.forEach((message, m) => {
    const path = `messages[${m}]`;
    if (!doc.participants.includes(message.speakerId)) {
      report({
        rule: 'participants',
        path: `${path}.speakerId`,
        message: `speaker '${message.speakerId}' is not a participant`,
      });
    }
    if (startMs(message.time) < startMs(previous)) {
      report({
        rule: 'time-order',
        path: `${path}.time`,
        message: `${message.time} is before ${m === 0 ? 'the document time' : 'the previous message'} (${previous})`,
      });
    }
    if (!isWithinWindow({ from: timeline.start, to: timeline.end, at: message.time })) {
      report({ rule: 'outside-timeline', path: `${path}.time`, message: `${message.time} is outside the timeline` });
    }
    previous = message.time;
  });
}
