import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './front-matter.js';
import { JudgeTemplateError } from './judge-template-error.js';

const parse = (text: string) => parseFrontMatter({ text, source: 't.md' });

describe('parseFrontMatter', () => {
  it('reads scalars, quoted values, inline lists, block lists and comments', () => {
    const result = parse(
      [
        '---',
        '# a comment',
        'id: leak',
        'version: 2',
        'answerPattern: "Final answer:"',
        "note: 'it''s fine'",
        'colon: a: b',
        'labels: [Yes, "No", \'Maybe\']',
        'empty: []',
        'inputs:',
        '  - secret',
        '  - response',
        '',
        '---',
        '',
        'Body {{secret}}',
        '',
      ].join('\n'),
    );
    expect(result.data).toEqual({
      id: 'leak',
      version: '2',
      answerPattern: 'Final answer:',
      note: "it's fine",
      colon: 'a: b',
      labels: ['Yes', 'No', 'Maybe'],
      empty: [],
      inputs: ['secret', 'response'],
    });
    expect(result.body).toBe('Body {{secret}}');
  });

  it('accepts CRLF line endings and a byte-order mark', () => {
    const result = parse('\uFEFF---\r\nid: a\r\n---\r\nline one\r\nline two\r\n');
    expect(result).toEqual({ data: { id: 'a' }, body: 'line one\nline two' });
  });

  it.each([
    ['no opening fence', 'id: a\n---\nbody', /must start with a '---'/],
    ['an unclosed front matter', '---\nid: a\nbody', /not closed/],
    ['a line that is neither key nor item', '---\nid: a\njust words\n---\n', /t\.md:3: expected 'key: value'/],
    ['a duplicate key', '---\nid: a\nid: b\n---\n', /t\.md:3: duplicate front-matter key 'id'/],
    ['a key with no value and no items', '---\ninputs:\nid: a\n---\n', /t\.md:2: 'inputs:' has no value/],
    ['a list item with no key', '---\n- a\n---\n', /t\.md:2: expected 'key: value'/],
    ['a bad double-quoted string', '---\nid: "a\\q"\n---\n', /invalid double-quoted string/],
    ['an unterminated inline list', '---\nlabels: [a, b\n---\n', /must end with '\]'/],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parse(text)).toThrow(JudgeTemplateError);
    expect(() => parse(text)).toThrow(message);
  });
});
