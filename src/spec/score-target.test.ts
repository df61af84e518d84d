import { describe, expect, it } from 'vitest';
import { scoreSchema } from './score.js';
import { formatScoreTarget, readLegacyScoreTarget, sameScoreTarget, scoreTargetMatches } from './score-target.js';

describe('score targets', () => {
  it('reads the text targets of older records as their fields', () => {
    expect(readLegacyScoreTarget('agent:agent_a/channel:messages')).toEqual({ agent: 'agent_a', channel: 'messages' });
    expect(readLegacyScoreTarget('agent:agent_a/first-violation')).toEqual({
      agent: 'agent_a',
      name: 'first-violation',
    });
    expect(readLegacyScoreTarget('requirement:3')).toEqual({ requirement: 3 });
    expect(readLegacyScoreTarget('item-2')).toEqual({ item: 2 });
    expect(readLegacyScoreTarget('r.0.1#item-10')).toEqual({ node: 'r.0.1', item: 10 });
    expect(readLegacyScoreTarget('r.0.1')).toEqual({ node: 'r.0.1' });
    expect(readLegacyScoreTarget('early-stop:round-4')).toEqual({ name: 'early-stop', round: 4 });
    expect(readLegacyScoreTarget('judge:1:openai:gpt-5.1')).toEqual({ detector: 'judge:1:openai:gpt-5.1' });
    expect(readLegacyScoreTarget('case')).toEqual({ name: 'case' });
    // Only the fields new records write as numbers become numbers.
    expect(readLegacyScoreTarget('agent:7/policy:0')).toEqual({ agent: '7', policy: 0 });
    expect(readLegacyScoreTarget('turn:3/call:01')).toEqual({ turn: 3, call: '01' });
  });

  it("reads a PrivacyBench label's bare secret id as the secret, whatever it looks like", () => {
    expect(readLegacyScoreTarget('maya-anxiety', 'privacybench-leak@1')).toEqual({ secret: 'maya-anxiety' });
    expect(readLegacyScoreTarget('r.0', 'privacybench-canary@1')).toEqual({ secret: 'r.0' });
    expect(readLegacyScoreTarget('persona', 'privacybench-persona@1')).toEqual({ name: 'persona' });
    const old = scoreSchema.parse({ scorer: 'privacybench-withholding@1', target: 'a:b', verdict: 'pass', value: 0 });
    expect(old.target).toEqual({ secret: 'a:b' });
  });

  it('parses a stored score with a text target into fields, and leaves fields as they are', () => {
    const old = scoreSchema.parse({ scorer: 'pac-privacy@1', target: 'agent:a', verdict: 'pass', value: 2 });
    expect(old.target).toEqual({ agent: 'a' });
    const current = scoreSchema.parse({ scorer: 's@1', target: { item: 1 }, verdict: 'fail', value: 1 });
    expect(current.target).toEqual({ item: 1 });
  });

  it('formats fields as text, the name bare', () => {
    expect(formatScoreTarget({ agent: 'a', name: 'first-violation' })).toBe('agent:a/first-violation');
    expect(formatScoreTarget({ node: 'r.0', item: 1 })).toBe('node:r.0/item:1');
  });

  it('matches on fields', () => {
    expect(scoreTargetMatches({ agent: 'a', channel: 'm' }, { agent: 'a' })).toBe(true);
    expect(sameScoreTarget({ agent: 'a', channel: 'm' }, { agent: 'a' })).toBe(false);
    expect(sameScoreTarget({ item: 1 }, { item: 1 })).toBe(true);
    expect(sameScoreTarget(undefined, undefined)).toBe(true);
  });
});
