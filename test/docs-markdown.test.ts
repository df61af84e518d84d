import { describe, expect, it } from 'vitest';
import {
  extractCommands,
  extractFiles,
  extractLinks,
  githubSlug,
  headingAnchors,
  splitShellWords,
} from './support/docs-markdown.js';

describe('docs-markdown', () => {
  it('makes GitHub heading anchors', () => {
    expect(githubSlug('Offline dry runs of judged suites')).toBe('offline-dry-runs-of-judged-suites');
    expect(githubSlug('`--config` documented and sane')).toBe('--config-documented-and-sane');
    expect(githubSlug('The 1-2-3 check: clean and upstream')).toBe('the-1-2-3-check-clean-and-upstream');
    expect([...headingAnchors('# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('finds links outside code', () => {
    const markdown = 'See [data](docs/data.md#route-1) and `[x](no.md)`.\n```\n[y](code.md)\n```\n[z](https://e.org)';
    expect(extractLinks({ file: 'README.md', markdown })).toEqual([
      { file: 'README.md', line: 1, target: 'docs/data.md#route-1' },
      { file: 'README.md', line: 5, target: 'https://e.org' },
    ]);
  });

  it('splits shell words and reports operators, not placeholders', () => {
    expect(splitShellWords(`confidant run x --model "prober=mock:fixed/Hi there?" # comment`)).toEqual({
      words: ['confidant', 'run', 'x', '--model', 'prober=mock:fixed/Hi there?'],
      problems: [],
    });
    expect(splitShellWords("confidant report runs/<run-id> --defense 'chain:G>V>R'")).toEqual({
      words: ['confidant', 'report', 'runs/<run-id>', '--defense', 'chain:G>V>R'],
      problems: [],
    });
    expect(splitShellWords('confidant run x --defense chain:G>V>R').problems).toEqual([
      "unquoted '>' at column 34 (the shell would treat it as an operator)",
      "unquoted '>' at column 36 (the shell would treat it as an operator)",
    ]);
  });

  it('extracts commands of shell blocks with their markers', () => {
    const markdown = [
      '```sh',
      'npx confidant run toy-leak \\',
      '  --model mock:echo   # offline',
      'npm test',
      '```',
      '<!-- needs: provider -->',
      '```sh',
      'confidant run x --model openai:gpt-4o',
      '```',
      '<!-- exit: 2 -->',
      '```bash',
      'confidant run nope',
      '```',
      '```json',
      'confidant not a command here',
      '```',
    ].join('\n');
    expect(extractCommands({ file: 'd.md', markdown })).toEqual([
      {
        file: 'd.md',
        line: 2,
        text: 'npx confidant run toy-leak --model mock:echo',
        args: ['run', 'toy-leak', '--model', 'mock:echo'],
        exit: 0,
        dryRun: true,
        problems: [],
      },
      {
        file: 'd.md',
        line: 8,
        text: 'confidant run x --model openai:gpt-4o',
        args: ['run', 'x', '--model', 'openai:gpt-4o'],
        needs: 'provider',
        exit: 0,
        dryRun: true,
        problems: [],
      },
      {
        file: 'd.md',
        line: 12,
        text: 'confidant run nope',
        args: ['run', 'nope'],
        exit: 2,
        dryRun: true,
        problems: [],
      },
    ]);
  });
});

describe('docs-markdown files', () => {
  it('extracts blocks marked as files', () => {
    const markdown = 'text\n<!-- file: a.json -->\n```json\n{ "x": 1 }\n```\n```json\n{}\n```\n';
    expect(extractFiles(markdown)).toEqual([{ name: 'a.json', content: '{ "x": 1 }\n' }]);
  });
});
