import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../spec/seeded-random.js';
import { STARTER_TIES, STARTER_USERS, styleText } from './starter-people.js';

describe('styleText', () => {
  const random = () => seededRandom(5);

  it("rewrites neutral lines in each member's texting style", () => {
    expect(styleText({ userId: 'daniel', text: 'See you on Friday.', random: random() })).toBe('See you on Friday.');
    expect(
      styleText({ userId: 'priya', text: 'To be honest, see you tonight because I am on my way.', random: random() }),
    ).toBe('tbh, see u tonite bc I am omw');
    expect(styleText({ userId: 'kofi', text: 'Hey, the table is done.', random: random() })).toBe(
      'the table is done...',
    );
    expect(styleText({ userId: 'elena', text: 'Hello, the plumber is here.', random: random() })).toBe(
      'Hello dear, the plumber is here!',
    );
    expect(styleText({ userId: 'maya', text: 'Coffee at Blue Kettle.', random: random() })).toMatch(
      /^coffee at blue kettle/,
    );
    expect(styleText({ userId: 'sam', text: 'I want to go.', random: random() })).toMatch(/wanna go!!$/);
  });
});

describe('starter cast', () => {
  it('has unique members and only ties between them', () => {
    const ids = STARTER_USERS.map((user) => user.userId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const tie of STARTER_TIES) {
      expect(ids).toContain(tie.relationship.sourceId);
      expect(ids).toContain(tie.relationship.targetId);
      expect(tie.topics.length).toBeGreaterThan(0);
    }
  });
});
