import { describe, expect, it } from 'vitest';
import { CHAT_TEMPLATES, GROUP_TEMPLATES } from './starter-chat-templates.js';
import { STARTER_USERS } from './starter-people.js';
import { STARTER_SECRETS } from './starter-secrets.js';
import { AI_TEMPLATES, BLOG_TEMPLATES, INTEREST_ITEMS, PURCHASE_CATALOG, SLOT_VALUES } from './starter-templates.js';

const texts = [
  ...CHAT_TEMPLATES.flatMap((template) => template.lines.map((line) => line.text)),
  ...Object.values(GROUP_TEMPLATES).flat(2),
  ...AI_TEMPLATES.flatMap((template) => [template.ask, template.answer]),
  ...BLOG_TEMPLATES.flatMap((template) => [template.title, ...template.paragraphs]),
  ...[...PURCHASE_CATALOG, ...Object.values(INTEREST_ITEMS)].map((item) => `${item.title} ${item.description}`),
  ...Object.values(SLOT_VALUES).flat(),
];

describe('starter templates', () => {
  it('use only known slots', () => {
    const slots = new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1])));
    expect([...slots].every((slot) => slot !== undefined && slot in SLOT_VALUES)).toBe(true);
    expect(slots.size).toBeGreaterThan(3);
  });

  it('never contain a canary of a starter secret', () => {
    const canaries = STARTER_SECRETS.flatMap((secret) => secret.canaries ?? []).map((canary) => canary.toLowerCase());
    expect(canaries.length).toBeGreaterThanOrEqual(12);
    for (const text of texts) for (const canary of canaries) expect(text.toLowerCase()).not.toContain(canary);
  });

  it('cover every interest of every member with a purchase', () => {
    const interests = STARTER_USERS.flatMap((user) => (user.attributes.interests ?? []).map((value) => value.value));
    for (const interest of interests) expect(INTEREST_ITEMS[interest]).toBeDefined();
  });
});
