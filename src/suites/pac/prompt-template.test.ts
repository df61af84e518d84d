import { describe, expect, it } from 'vitest';
import { fillPacSlots, PacPromptTemplateError, parsePacPromptTemplate } from './prompt-template.js';

const text = [
  '---',
  '# a comment',
  'id: demo',
  'version: 2',
  'description: A demo file.',
  '---',
  '<!-- part: intro -->',
  'Hello {{name}}.',
  '',
  '<!-- part: rules:pair -->',
  '- one',
  '',
  '- two',
  '<!-- part: fence -->',
  '---',
].join('\n');

describe('parsePacPromptTemplate', () => {
  it('reads front matter and parts in order', () => {
    const template = parsePacPromptTemplate({ text, source: 'demo.md' });
    expect([template.id, template.version, template.description]).toEqual(['demo', 2, 'A demo file.']);
    expect(template.partNames).toEqual(['intro', 'rules:pair', 'fence']);
    expect(template.part('intro')).toBe('Hello {{name}}.');
    expect(template.lines('rules:pair')).toEqual(['- one', '- two']);
    expect(template.part('fence')).toBe('---');
    expect(template.lines('absent')).toEqual([]);
    expect(template.has('absent')).toBe(false);
    expect(template.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => template.part('absent')).toThrow(PacPromptTemplateError);
  });

  it('accepts a file without parts', () => {
    expect(parsePacPromptTemplate({ text: '---\nid: x\nversion: 1\n---\n', source: 'x.md' }).partNames).toEqual([]);
  });

  it('rejects malformed files', () => {
    expect(() => parsePacPromptTemplate({ text: 'id: x', source: 'a.md' })).toThrow(/must start/);
    expect(() => parsePacPromptTemplate({ text: '---\nid: x\n', source: 'a.md' })).toThrow(/not closed/);
    expect(() => parsePacPromptTemplate({ text: '---\nid: x\n---\n', source: 'a.md' })).toThrow(/version/);
    expect(() => parsePacPromptTemplate({ text: '---\nid: x\nversion: 1\n---\nstray', source: 'a.md' })).toThrow(
      /before the first/,
    );
    const twice = '---\nid: x\nversion: 1\n---\n<!-- part: a -->\n<!-- part: a -->';
    expect(() => parsePacPromptTemplate({ text: twice, source: 'a.md' })).toThrow(/twice/);
  });
});

describe('fillPacSlots', () => {
  it('fills in one pass and never re-scans values', () => {
    expect(fillPacSlots('{{a}} and {{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}} and B');
  });
  it('throws for a slot without a value', () => {
    expect(() => fillPacSlots('{{missing}}', {})).toThrow(PacPromptTemplateError);
  });
});
