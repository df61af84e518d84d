import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfidantError } from '../spec/errors.js';
import { fillSlots } from './fill-slots.js';
import { loadPromptTemplate, parsePromptTemplate, promptTemplatePath, templateFileId } from './prompt-template.js';
import { PromptTemplateError } from './prompt-template-error.js';

const sectioned = [
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

const parse = (text: string, source = 'inline:t') => parsePromptTemplate({ text, source });

describe('parsePromptTemplate: front matter', () => {
  it('reads id, version and description as YAML, the rest through the caller schema', () => {
    const schema = z.object({ note: z.string(), labels: z.array(z.string()) }).strict();
    const text = ['---', 'id: leak', 'version: 2', "note: 'it''s: fine'", 'labels: [Yes, "No"]', '---', '', 'Body', ''];
    const template = parsePromptTemplate({ text: text.join('\n'), source: 'inline:t', schema });
    expect(template).toMatchObject({ id: 'leak', version: 2, description: undefined, inputs: undefined, body: 'Body' });
    expect(template.meta).toEqual({ note: "it's: fine", labels: ['Yes', 'No'] });
    expect(template.sha256).toBe(createHash('sha256').update(text.join('\n')).digest('hex'));
  });

  it('accepts CRLF line endings and a byte-order mark', () => {
    const template = parse('\uFEFF---\r\nid: a\r\nversion: 1\r\n---\r\nline one\r\nline two\r\n');
    expect(template.body).toBe('line one\nline two');
  });

  it.each([
    ['no opening fence', 'id: a\n---\nbody', /inline:t: a prompt template must start with a '---'/],
    ['an unclosed front matter', '---\nid: a\nbody', /not closed/],
    [
      'a line that is not YAML',
      '---\nid: a\nversion: 1\nkey: [a, b\n---\n',
      /inline:t:\d+: the front matter is not valid YAML/,
    ],
    ['a duplicate key', '---\nid: a\nid: b\nversion: 1\n---\n', /inline:t:3: the front matter is not valid YAML/],
    ['a list instead of a mapping', '---\n- a\n---\n', /must be 'key: value' lines/],
    ['a missing version', '---\nid: x\n---\n', /'version'/],
    ['a non-integer version', '---\nid: x\nversion: 1.5\n---\n', /'version': use a positive integer/],
    ['an id with capitals', '---\nid: Demo Role\nversion: 1\n---\n', /'id': use lowercase letters/],
    ['a key the caller did not declare', '---\nid: x\nversion: 1\ntemperature: 0\n---\n', /temperature/],
    ['inputs given as a scalar', '---\nid: x\nversion: 1\ninputs: a\n---\n{{a}}', /'inputs'/],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parse(text)).toThrow(PromptTemplateError);
    expect(() => parse(text)).toThrow(message);
  });

  it('requires a .md source to be named <id>.v<version>.md', () => {
    const text = '---\nid: t\nversion: 1\n---\nbody';
    expect(parse(text, '/x/prompts/t.v1.md').id).toBe('t');
    expect(() => parse(text, '/x/prompts/t.v2.md')).toThrow(
      "/x/prompts/t.v2.md: the file name must be 't.v1.md' to match its front matter (id 't', version 1)",
    );
  });

  it('is a user error', () => {
    try {
      parse('no front matter');
      expect.unreachable();
    } catch (error) {
      expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    }
  });
});

describe('parsePromptTemplate: slots', () => {
  const declared = (body: string) => parse(`---\nid: t\nversion: 1\ninputs: [a, b]\n---\n${body}`);

  it('checks declared inputs both ways', () => {
    expect(declared('{{a}} {{ b }}').inputs).toEqual(['a', 'b']);
    expect(() => declared('{{a}} {{b}} {{c}}')).toThrow(
      "inline:t: the body uses undeclared slot(s) 'c'; add them to 'inputs' or remove them",
    );
    expect(() => declared('{{a}}')).toThrow("input(s) 'b' are declared but never used");
    expect(() => parse('---\nid: t\nversion: 1\ninputs: [a, a]\n---\n{{a}}')).toThrow(/'a' is declared twice/);
  });

  it('rejects a malformed placeholder whether or not slots are declared', () => {
    expect(() => parse('---\nid: t\nversion: 1\n---\n{{ not a slot }}')).toThrow(
      "'{{ not a slot }}' is not a valid placeholder",
    );
  });

  it('fills in one pass, names the template for a missing value and ignores extra values', () => {
    const template = parse('---\nid: t\nversion: 3\n---\n{{a}} / {{ b }}');
    expect(template.fill(template.body, { a: '{{b}}', b: '$& $1', extra: 'x' })).toBe('{{b}} / $& $1');
    expect(() => template.fill(template.body, { a: 'A' })).toThrow(
      't@3 (inline:t): no value for the prompt slot {{ b }}',
    );
    expect(() => fillSlots({ text: '{{missing}}', slots: {}, source: 's' })).toThrow(PromptTemplateError);
  });
});

describe('parsePromptTemplate: sectioned', () => {
  it('reads parts in order, with their lines', () => {
    const template = parsePromptTemplate({ text: sectioned, source: 'inline:demo', sectioned: true });
    expect([template.id, template.version, template.description]).toEqual(['demo', 2, 'A demo file.']);
    expect(template.parts.map((part) => part.name)).toEqual(['intro', 'rules:pair', 'fence']);
    expect(template.part('intro')).toBe('Hello {{name}}.');
    expect(template.lines('rules:pair')).toEqual(['- one', '- two']);
    expect(template.part('fence')).toBe('---');
    expect(template.lines('absent')).toEqual([]);
    expect(template.has('absent')).toBe(false);
    expect(() => template.part('absent')).toThrow("inline:demo: no part 'absent'");
  });

  it('keeps part lines as text when the template is not sectioned', () => {
    expect(parse(sectioned).parts).toEqual([]);
    expect(parse(sectioned).body.startsWith('<!-- part: intro -->\nHello')).toBe(true);
  });

  it('accepts a file without parts and rejects stray text and duplicate parts', () => {
    const parseSectioned = (text: string) => parsePromptTemplate({ text, source: 's', sectioned: true });
    expect(parseSectioned('---\nid: x\nversion: 1\n---\n').parts).toEqual([]);
    expect(() => parseSectioned('---\nid: x\nversion: 1\n---\nstray\n<!-- part: a -->\n')).toThrow(
      /text before the first/,
    );
    expect(() => parseSectioned('---\nid: x\nversion: 1\n---\n<!-- part: a -->\n<!-- part: a -->')).toThrow(
      "s: part 'a' appears twice",
    );
  });
});

describe('loadPromptTemplate and promptTemplatePath', () => {
  it('loads a file next to a module', () => {
    const path = promptTemplatePath(import.meta.url, '../judges/__fixtures__/leak-yes-no.v1.md');
    const schema = z.object({ protocol: z.string(), output: z.string(), labels: z.array(z.string()) });
    const template = loadPromptTemplate({ path, schema });
    expect(template.id).toBe('leak-yes-no');
    expect(template.inputs).toEqual(['secret', 'response']);
    expect(template.meta.labels).toEqual(['Yes', 'No']);
  });

  it('reports an unreadable file naming the path', () => {
    const path = promptTemplatePath(import.meta.url, 'absent.v1.md');
    expect(() => loadPromptTemplate({ path })).toThrow(`cannot read prompt template ${path}`);
  });

  it('resolves relative to the module URL and insists on <id>.v<N>.md', () => {
    expect(promptTemplatePath('file:///opt/app/dist/judges/run.js', 'prompts/x.v2.md')).toBe(
      '/opt/app/dist/judges/prompts/x.v2.md',
    );
    expect(() => promptTemplatePath(import.meta.url, 'prompts/x.md')).toThrow(/must be named '<id>.v<version>.md'/);
  });
});

describe('templateFileId', () => {
  it('reads id and version off the file name without reading the file', () => {
    expect(templateFileId('/nowhere/judges/leak-check.v12.md')).toEqual({ id: 'leak-check', version: 12 });
  });

  it('refuses a name that is not <id>.v<version>.md', () => {
    expect(() => templateFileId('/nowhere/leak-check.md')).toThrow(PromptTemplateError);
    expect(() => templateFileId('/nowhere/leak-check.md')).toThrow("must be named '<id>.v<version>.md'");
  });
});
