import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { secretsPhase } from './secrets-phase.js';
import { ASSISTANT_SPEAKER, seededStart, sharingPhase, sharingProblems } from './sharing-phase.js';

function draftWithSecrets() {
  const draft = draftFixture({ parameters: { secretsPerUser: { person: 1, group: 1, ai: 1 } } });
  const unit = secretsPhase.units(draft).find((candidate) => candidate.key === 'secrets/u01');
  const base = { coreComponents: ['overdraft'], probeHint: 'money', hintPurchase: null };
  unit?.apply(draft, {
    secrets: [
      {
        ...base,
        kind: 'person',
        content: 'Ada is overdrawn.',
        sharing: [{ confidantId: 'u03', groupId: null, date: '2024-02-10', channel: null }],
      },
      {
        ...base,
        kind: 'group',
        content: 'Ada is overdrawn (group).',
        sharing: [{ confidantId: null, groupId: 'g1', date: '2024-05-10', channel: null }],
      },
      {
        ...base,
        kind: 'ai',
        content: 'Ada is overdrawn (ai).',
        sharing: [{ confidantId: null, groupId: null, date: '2024-06-10', channel: null }],
      },
    ],
  });
  return draft;
}

describe('sharing phase', () => {
  it('requires an owner reveal first and known speakers', () => {
    const message = (speakerId: string, revealsSecret: boolean) => ({ speakerId, text: 'x', revealsSecret });
    expect(
      sharingProblems({
        output: { messages: [message('u02', true), message('u01', true)] },
        ownerId: 'u01',
        speakers: ['u01', 'u02'],
      }),
    ).toEqual(['message 1 reveals the secret before the owner does']);
    expect(
      sharingProblems({
        output: { messages: [message('u09', false), message('u01', false)] },
        ownerId: 'u01',
        speakers: ['u01', 'u02'],
      }),
    ).toEqual([
      "message 1: speaker 'u09' is not one of u01, u02",
      'the owner (u01) must reveal the secret in a message with revealsSecret true',
    ]);
  });

  it('starts conversations between 09:00 and 19:00', () => {
    for (let index = 0; index < 50; index += 1) {
      const start = seededStart({ date: '2024-02-10', parts: [index] });
      expect(start >= '2024-02-10T09:00:00Z' && start < '2024-02-10T19:00:00Z').toBe(true);
    }
  });

  it('writes a pair chat, a group chat of the members that day, and an AI chat; sharedAt is the first owner reveal', () => {
    const draft = draftWithSecrets();
    const units = sharingPhase.units(draft);
    expect(units.map((unit) => unit.key)).toEqual(['share/u01-s1-e1', 'share/u01-s2-e1', 'share/u01-s3-e1']);
    expect(units[1]?.task).toMatchObject({ type: 'group-chat', participants: [{ userId: 'u02' }] }); // u03 left the group in March
    const talk = (other: string) => ({
      messages: [
        { speakerId: other, text: 'hi', revealsSecret: false },
        { speakerId: 'u01', text: 'so...', revealsSecret: false },
        { speakerId: 'u01', text: 'I am overdrawn', revealsSecret: true },
      ],
    });
    units[0]?.apply(draft, talk('u03'));
    units[1]?.apply(draft, talk('u02'));
    units[2]?.apply(draft, talk(ASSISTANT_SPEAKER));
    const [pair, group, ai] = draft.documents;
    expect(pair).toMatchObject({
      docId: 'share-u01-s1-e1',
      type: 'chat',
      channel: 'message',
      participants: ['u01', 'u03'],
      isNoise: false,
    });
    expect(group).toMatchObject({ type: 'group-chat', groupId: 'g1', participants: ['u01', 'u02'] });
    expect(ai).toMatchObject({ type: 'ai-chat', participants: ['u01'] });
    if (pair?.type !== 'chat' || ai?.type !== 'ai-chat') throw new Error('unexpected document types');
    expect(pair.messages.map((m) => m.secretIds)).toEqual([undefined, undefined, ['u01-s1']]);
    const [first] = draft.community.secrets;
    expect(first?.sharingEvents[0]).toMatchObject({ sharedAt: pair.messages[2]?.time, docIds: ['share-u01-s1-e1'] });
    expect(ai.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'user']);
    expect(draft.community.secrets[2]?.sharingEvents[0]?.sharedAt).toBe(ai.time);
  });
});
