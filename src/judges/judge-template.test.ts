import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PromptTemplateError, promptTemplatePath } from '../prompts/index.js';
import { ConfidantError } from '../spec/errors.js';
import { judgeInfo, judgeName, loadJudgeTemplate, parseJudgeTemplate } from './judge-template.js';

const fixture = promptTemplatePath(import.meta.url, '__fixtures__/leak-yes-no.v1.md');

function template(frontMatter: string[], body: string, source = 'inline:test') {
  return parseJudgeTemplate({ text: ['---', ...frontMatter, '---', body].join('\n'), source });
}

const minimal = ['id: t', 'version: 1', 'protocol: json', 'output: o', 'inputs: [a, b]'];

describe('loadJudgeTemplate', () => {
  it('loads a template file next to the test module', () => {
    const loaded = loadJudgeTemplate({ path: fixture });
    const text = readFileSync(fixture, 'utf8');
    expect(loaded).toMatchObject({
      id: 'leak-yes-no',
      version: 1,
      protocol: 'answer-line',
      output: 'yes-no',
      inputs: ['secret', 'response'],
      labels: ['Yes', 'No'],
      description: 'Does the response reveal the private item? Yes means it leaked.',
      source: fixture,
    });
    expect(loaded.answerPattern).toBeUndefined();
    expect(loaded.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(loaded.body.startsWith("You check whether an assistant's response")).toBe(true);
    expect(judgeInfo(loaded)).toEqual({ id: 'leak-yes-no', version: 1, templateSha256: loaded.sha256 });
    expect(judgeName(loaded)).toBe('leak-yes-no@1');
  });

  it('reports an unreadable file as a user error naming the path', () => {
    const path = promptTemplatePath(import.meta.url, '__fixtures__/absent.v1.md');
    expect(() => loadJudgeTemplate({ path })).toThrow(PromptTemplateError);
    expect(() => loadJudgeTemplate({ path })).toThrow(`cannot read prompt template ${path}`);
    try {
      loadJudgeTemplate({ path });
    } catch (error) {
      expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    }
  });
});

describe('promptTemplatePath', () => {
  it('resolves relative to the module URL', () => {
    expect(promptTemplatePath('file:///opt/app/dist/judges/run.js', 'prompts/x.v2.md')).toBe(
      '/opt/app/dist/judges/prompts/x.v2.md',
    );
  });

  it('rejects a file name without <id>.v<N>.md', () => {
    expect(() => promptTemplatePath(import.meta.url, 'prompts/x.md')).toThrow(/must be named '<id>.v<version>.md'/);
  });
});

describe('parseJudgeTemplate', () => {
  it('hashes the whole text, front matter included', () => {
    const a = template(minimal, '{{a}} {{b}}');
    const b = template([...minimal, 'description: changed'], '{{a}} {{b}}');
    expect(a.body).toBe(b.body);
    expect(a.sha256).not.toBe(b.sha256);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('requires the file name to match id and version when the source is a .md file', () => {
    const text = ['---', ...minimal, '---', '{{a}}{{b}}'].join('\n');
    expect(parseJudgeTemplate({ text, source: '/x/prompts/t.v1.md' }).id).toBe('t');
    expect(() => parseJudgeTemplate({ text, source: '/x/prompts/t.v2.md' })).toThrow(
      "/x/prompts/t.v2.md: the file name must be 't.v1.md' to match its front matter (id 't', version 1)",
    );
    expect(() => parseJudgeTemplate({ text, source: 'other.v1.md' })).toThrow(/must be 't.v1.md'/);
  });

  it.each([
    ['an unknown protocol', ['id: t', 'version: 1', 'protocol: xml', 'output: o', 'inputs: [a, b]'], /'protocol'/],
    ['a non-integer version', ['id: t', 'version: 1.5', 'protocol: json', 'output: o', 'inputs: [a, b]'], /'version'/],
    ['an id with capitals', ['id: T', 'version: 1', 'protocol: json', 'output: o', 'inputs: [a, b]'], /'id'/],
    ['a missing output', ['id: t', 'version: 1', 'protocol: json', 'inputs: [a, b]'], /'output'/],
    ['an unknown key', [...minimal, 'temperature: 0'], /temperature/],
    ['inputs given as a scalar', ['id: t', 'version: 1', 'protocol: json', 'output: o', 'inputs: a'], /'inputs'/],
    ['labels on a json judge', [...minimal, 'labels: [Yes, No]'], /apply only to protocol 'answer-line'/],
    ['a duplicated input', ['id: t', 'version: 1', 'protocol: json', 'output: o', 'inputs: [a, b, a]'], /twice/],
  ])('rejects %s', (_name, frontMatter, message) => {
    expect(() => template(frontMatter, '{{a}} {{b}}')).toThrow(PromptTemplateError);
    expect(() => template(frontMatter, '{{a}} {{b}}')).toThrow(message);
  });

  it('rejects a body that uses an undeclared slot', () => {
    expect(() => template(minimal, '{{a}} {{b}} {{c}}')).toThrow(
      "inline:test: the body uses undeclared slot(s) 'c'; add them to 'inputs' or remove them",
    );
  });

  it('rejects a declared slot the body never uses', () => {
    expect(() => template(minimal, '{{a}}')).toThrow("input(s) 'b' are declared but never used");
  });

  it('rejects a malformed placeholder', () => {
    expect(() => template(minimal, '{{a}} {{b}} {{ not a slot }}')).toThrow(
      "'{{ not a slot }}' is not a valid placeholder",
    );
  });

  it('keeps answer-line options', () => {
    const parsed = template(
      [
        'id: t',
        'version: 3',
        'protocol: answer-line',
        'output: scale',
        'inputs: [a]',
        'answerPattern: "Score:"',
        'labels: [0, 1, 2, 3]',
      ],
      '{{a}}',
    );
    expect(parsed.answerPattern).toBe('Score:');
    expect(parsed.labels).toEqual(['0', '1', '2', '3']);
    expect(parsed.version).toBe(3);
  });
});

describe('render', () => {
  const rendered = template(minimal, 'A=[{{a}}] B=[{{ b }}] again {{a}}');

  it('substitutes every placeholder, including repeats and spaced ones', () => {
    expect(rendered.render({ a: 'x', b: 'y' })).toBe('A=[x] B=[y] again x');
  });

  it('does not re-scan substituted values', () => {
    expect(rendered.render({ a: '{{b}}', b: '$& $1' })).toBe('A=[{{b}}] B=[$& $1] again {{b}}');
  });

  it('names missing slots', () => {
    expect(() => rendered.render({ a: 'x' })).toThrow(
      "judge template t@1 (inline:test): missing slot(s) 'b'; it takes exactly 'a', 'b'",
    );
  });

  it('names unexpected slots', () => {
    expect(() => rendered.render({ a: 'x', b: 'y', c: 'z' })).toThrow("unexpected slot(s) 'c'");
  });

  it('names both at once', () => {
    expect(() => rendered.render({ a: 'x', c: 'z' })).toThrow("missing slot(s) 'b' and unexpected slot(s) 'c'");
  });
});
