import { describe, expect, it } from 'vitest';
import { fillSlots, parsePromptTemplate } from './prompt-template.js';

const text = [
  '---',
  '# comment',
  'id: demo',
  'version: 2',
  '---',
  '',
  '<!-- part: first -->',
  'Hello {{name}}.',
  '',
  '<!-- part: section:body -->',
  '',
  '## Heading',
  'Line {{name}} and {{other}}',
  '',
].join('\n');

describe('parsePromptTemplate', () => {
  it('splits parts in file order and trims them', () => {
    const template = parsePromptTemplate({ text, source: 'demo.md' });
    expect(template.id).toBe('demo');
    expect(template.version).toBe(2);
    expect(template.parts).toEqual([
      { name: 'first', text: 'Hello {{name}}.' },
      { name: 'section:body', text: '## Heading\nLine {{name}} and {{other}}' },
    ]);
    expect(template.part('first')).toBe('Hello {{name}}.');
    expect(template.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => template.part('nope')).toThrow(/no part 'nope'/);
  });

  it('rejects text before the first part, duplicate parts and a missing version', () => {
    expect(() =>
      parsePromptTemplate({ text: '---\nid: x\nversion: 1\n---\nstray\n<!-- part: a -->\n', source: 's' }),
    ).toThrow(/text before the first/);
    expect(() =>
      parsePromptTemplate({ text: '---\nid: x\nversion: 1\n---\n<!-- part: a -->\n<!-- part: a -->\n', source: 's' }),
    ).toThrow(/part 'a' appears twice/);
    expect(() => parsePromptTemplate({ text: '---\nid: x\n---\n<!-- part: a -->\n', source: 's' })).toThrow(/version/);
  });
});

describe('fillSlots', () => {
  it('substitutes in one pass, never re-reading values', () => {
    expect(fillSlots('{{a}} / {{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}} / B');
  });

  it('throws for a slot without a value', () => {
    expect(() => fillSlots('{{a}} {{missing}}', { a: 'A' })).toThrow(/\{\{missing\}\}/);
  });
});
