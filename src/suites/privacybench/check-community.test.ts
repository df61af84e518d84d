import { describe, expect, it } from 'vitest';
import { buildStarterCommunity, type StarterCommunity } from './build-starter-community.js';
import { checkCommunity } from './check-community.js';
import { formatCommunityIssue } from './community-issue.js';
import type { CommunityDocument } from './community-schema.js';

const BUILT = buildStarterCommunity();

/** A fresh, mutable copy of the starter community (sound by construction). */
function starter(): StarterCommunity {
  return structuredClone(BUILT);
}

function lines(fixture: StarterCommunity): string[] {
  return checkCommunity(fixture).map(formatCommunityIssue);
}

function docIndex(fixture: StarterCommunity, docId: string): number {
  const index = fixture.documents.findIndex((doc) => doc.docId === docId);
  if (index < 0) throw new Error(`no document ${docId}`);
  return index;
}

function doc(fixture: StarterCommunity, docId: string): CommunityDocument {
  const found = fixture.documents[docIndex(fixture, docId)];
  if (found === undefined) throw new Error(`no document ${docId}`);
  return found;
}

function secretIndex(fixture: StarterCommunity, secretId: string): number {
  return fixture.community.secrets.findIndex((secret) => secret.secretId === secretId);
}

function sharingDocId(fixture: StarterCommunity, secretId: string, event = 0): string {
  const docId = fixture.community.secrets[secretIndex(fixture, secretId)]?.sharingEvents[event]?.docIds[0];
  if (docId === undefined) throw new Error(`no sharing document for ${secretId}`);
  return docId;
}

function chatMessages(document: CommunityDocument) {
  if (document.type !== 'chat' && document.type !== 'group-chat') throw new Error(`${document.docId} is not a chat`);
  return document.messages;
}

describe('checkCommunity', () => {
  it('finds nothing wrong with the starter community', () => {
    expect(checkCommunity(starter())).toEqual([]);
  });

  it('reports a confidant whose relationship ended before the sharing event', () => {
    const fixture = starter();
    const edge = fixture.community.relationships.find(
      (relationship) => relationship.sourceId === 'priya' && relationship.targetId === 'sam',
    );
    if (edge === undefined) throw new Error('no priya–sam edge');
    edge.endDate = '2024-08-31';
    const s = secretIndex(fixture, 'priya-ccrn');
    expect(lines(fixture)).toContain(
      `community.json: secrets[${s}].sharingEvents[1].audience.userIds[0]: confidant 'sam' has no active relationship with owner 'priya' at 2024-09-05T07:42:00Z`,
    );
    const issue = checkCommunity(fixture).find((candidate) => candidate.path.startsWith(`secrets[${s}]`));
    expect(issue).toMatchObject({ rule: 'relationship-inactive', secretId: 'priya-ccrn', file: 'community.json' });
  });

  it('reports a secret that its sharing document does not reveal', () => {
    const fixture = starter();
    const docId = sharingDocId(fixture, 'maya-debt');
    for (const message of chatMessages(doc(fixture, docId))) delete message.secretIds;
    const s = secretIndex(fixture, 'maya-debt');
    const found = lines(fixture);
    expect(found).toContain(
      `community.json: secrets[${s}].sharingEvents[0].docIds[0]: document '${docId}' has no message by 'maya' tagged with 'maya-debt'`,
    );
    // The untagged reveal still holds the canaries, which the canary rule catches too.
    const line = docIndex(fixture, docId) + 1;
    expect(found).toContain(
      `documents.jsonl:${line} (${docId}): messages[1].text: contains canary 'ClearPath Credit' of 'maya-debt' but is not tagged with it`,
    );
    expect(found).toContain(
      `community.json: secrets[${s}].canaries[0]: canary 'ClearPath Credit' appears in no text tagged with 'maya-debt'`,
    );
  });

  it('reports a dangling user id with its document line and path', () => {
    const fixture = starter();
    const target = doc(fixture, 'chat-0042');
    target.participants[1] = 'u9';
    const line = docIndex(fixture, 'chat-0042') + 1;
    expect(lines(fixture)).toContain(`documents.jsonl:${line} (chat-0042): participants[1]: user 'u9' does not exist`);
  });

  it('reports timestamps outside the timeline and messages that go back in time', () => {
    const fixture = starter();
    const blog = doc(fixture, 'blog-0001');
    blog.time = '2025-03-01T10:00:00Z';
    const chat = doc(fixture, 'chat-0042');
    const messages = chatMessages(chat);
    const second = messages[1];
    if (second === undefined) throw new Error('chat-0042 is too short');
    second.time = '2024-04-16T11:00:00Z';
    const found = lines(fixture);
    expect(found).toContain(
      `documents.jsonl:${docIndex(fixture, 'blog-0001') + 1} (blog-0001): time: 2025-03-01T10:00:00Z is outside the timeline`,
    );
    expect(found).toContain(
      `documents.jsonl:${docIndex(fixture, 'chat-0042') + 1} (chat-0042): messages[1].time: 2024-04-16T11:00:00Z is before the previous message (${messages[0]?.time})`,
    );
  });

  it('reports every planted problem at once, not just the first', () => {
    const fixture = starter();
    doc(fixture, 'chat-0042').participants[1] = 'u9';
    doc(fixture, 'blog-0001').time = '2025-03-01T10:00:00Z';
    const secret = fixture.community.secrets[secretIndex(fixture, 'kofi-parkinsons')];
    if (secret === undefined) throw new Error('no kofi-parkinsons');
    secret.probeHint = "whether Kofi has been diagnosed with early-stage Parkinson's disease";
    // The dangling id also leaves maya's message in chat-0042 without a participant behind it.
    expect(lines(fixture)).toEqual([
      'documents.jsonl:5 (blog-0001): time: 2025-03-01T10:00:00Z is outside the timeline',
      "documents.jsonl:86 (chat-0042): participants[1]: user 'u9' does not exist",
      "documents.jsonl:86 (chat-0042): messages[1].speakerId: speaker 'maya' is not a participant",
      "community.json: secrets[11].probeHint: the probe hint contains 'diagnosed with early-stage Parkinson's disease'",
      "community.json: secrets[11].probeHint: the probe hint contains 'Parkinson's'",
    ]);
  });

  it('reports a tagged message that reaches someone never told', () => {
    const fixture = starter();
    const mundane = fixture.documents.find(
      (candidate): candidate is Extract<CommunityDocument, { type: 'chat' }> =>
        candidate.type === 'chat' &&
        !candidate.isNoise &&
        candidate.participants.includes('priya') &&
        candidate.participants.includes('maya'),
    );
    const first = mundane?.messages[0];
    if (mundane === undefined || first === undefined) throw new Error('no maya–priya chat');
    first.secretIds = ['maya-anxiety'];
    const line = docIndex(fixture, mundane.docId) + 1;
    expect(lines(fixture)).toContain(
      `documents.jsonl:${line} (${mundane.docId}): messages[0].secretIds: reveals 'maya-anxiety' to 'priya', not authorized at ${first.time}; add a sharing event`,
    );
  });

  it('reports a sharedAt that is not the first revealing message', () => {
    const fixture = starter();
    const s = secretIndex(fixture, 'daniel-layoffs');
    const event = fixture.community.secrets[s]?.sharingEvents[0];
    if (event === undefined) throw new Error('no event');
    event.sharedAt = '2024-05-02T17:40:00Z';
    expect(lines(fixture)).toContain(
      `community.json: secrets[${s}].sharingEvents[0].sharedAt: sharedAt 2024-05-02T17:40:00Z is not the time of the first revealing message (2024-05-02T17:45:00Z)`,
    );
  });

  it('reports a sharing event pointing at a document of the wrong kind or a missing one', () => {
    const fixture = starter();
    const s = secretIndex(fixture, 'elena-taxes');
    const event = fixture.community.secrets[s]?.sharingEvents[0];
    if (event === undefined) throw new Error('no event');
    event.docIds = ['chat-0042', 'ai-9999'];
    const found = lines(fixture);
    expect(found).toContain(
      `community.json: secrets[${s}].sharingEvents[0].docIds[0]: document 'chat-0042' is a chat; a secret told to the AI is shared in an ai-chat`,
    );
    expect(found).toContain(
      `community.json: secrets[${s}].sharingEvents[0].docIds[1]: document 'ai-9999' does not exist`,
    );
  });

  it('reports a group chat participant who is not a member at the time', () => {
    const fixture = starter();
    const docId = sharingDocId(fixture, 'maya-proposal');
    const groupChat = doc(fixture, docId);
    groupChat.participants.push('sam');
    expect(lines(fixture)).toContain(
      `documents.jsonl:${docIndex(fixture, docId) + 1} (${docId}): participants[2]: 'sam' is not a member of 'ridge-runners' at 2024-02-10T09:00:00Z`,
    );
  });

  it('reports graph and profile inconsistencies', () => {
    const fixture = starter();
    const sibling = fixture.community.relationships[0];
    if (sibling === undefined) throw new Error('no relationship');
    sibling.endDate = '2024-12-01';
    const blog = doc(fixture, 'blog-0001');
    blog.revealedAttributes = ['shoe size'];
    blog.participants.push('maya');
    const found = lines(fixture);
    expect(found).toContain('community.json: relationships[0].endDate: a permanent relationship never ends');
    const line = docIndex(fixture, 'blog-0001') + 1;
    expect(found).toContain(
      `documents.jsonl:${line} (blog-0001): revealedAttributes[0]: 'daniel' has no attribute 'shoe size'`,
    );
    expect(found).toContain(
      `documents.jsonl:${line} (blog-0001): participants: a blog belongs to its owner alone: participants must be ['daniel']`,
    );
  });

  it('reports duplicate ids, unknown secret tags and tags on noise documents', () => {
    const fixture = starter();
    const copy = structuredClone(doc(fixture, 'chat-0042'));
    fixture.documents.push(copy);
    const noisy = doc(fixture, 'chat-0042');
    const first = chatMessages(noisy)[0];
    if (first === undefined) throw new Error('empty chat');
    first.secretIds = ['no-such-secret'];
    const found = lines(fixture);
    expect(found).toContain(
      `documents.jsonl:${fixture.documents.length} (chat-0042): docId: document 'chat-0042' repeats`,
    );
    const line = docIndex(fixture, 'chat-0042') + 1;
    expect(found).toContain(
      `documents.jsonl:${line} (chat-0042): messages[0].secretIds[0]: secret 'no-such-secret' does not exist`,
    );
    expect(found).toContain(
      `documents.jsonl:${line} (chat-0042): messages[0].secretIds: a noise document carries a secret`,
    );
  });

  it('uses the given line numbers and skips documents known to be invalid', () => {
    const fixture = starter();
    const s = secretIndex(fixture, 'kofi-parkinsons');
    const docId = sharingDocId(fixture, 'kofi-parkinsons');
    const documents = fixture.documents.filter((candidate) => candidate.docId !== docId);
    const firstDoc = documents[0];
    if (firstDoc === undefined) throw new Error('no documents');
    documents[0] = { ...firstDoc, participants: ['ghost'] };
    const issues = checkCommunity({
      community: fixture.community,
      documents,
      lines: documents.map((_, index) => index + 100),
      invalidDocIds: new Set([docId]),
    });
    expect(issues.map(formatCommunityIssue)).toContain(
      `documents.jsonl:100 (${documents[0]?.docId}): participants[0]: user 'ghost' does not exist`,
    );
    expect(issues.some((issue) => issue.path === `secrets[${s}].sharingEvents[0].docIds[0]`)).toBe(false);
  });
});
