import { describe, expect, it } from 'vitest';
import { createUnifiedDiff } from './unified-diff.js';

const HEADER = (path: string) => `Index: ${path}\n${'='.repeat(67)}\n--- ${path}\toriginal\n+++ ${path}\tmodified\n`;

describe('createUnifiedDiff', () => {
  it('prints one hunk with up to four lines of context', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n';
    const after = before.replace('l5\n', 'L5\n');
    expect(createUnifiedDiff({ path: '/w/f.txt', before, after })).toBe(
      `${HEADER('/w/f.txt')}@@ -1,9 +1,9 @@\n l1\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n l9\n`,
    );
  });

  it('splits distant changes into separate hunks and joins close ones', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    const before = `${lines.join('\n')}\n`;
    const after = `${lines.map((line, index) => (index === 1 || index === 18 ? line.toUpperCase() : line)).join('\n')}\n`;
    const diff = createUnifiedDiff({ path: 'p', before, after });
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -15,6 +15,6 @@']);
    const close = `${lines.map((line, index) => (index === 3 || index === 10 ? `${line}!` : line)).join('\n')}\n`;
    expect(createUnifiedDiff({ path: 'p', before, after: close }).match(/^@@ .* @@$/gm)).toEqual(['@@ -1,15 +1,15 @@']);
  });

  it('marks a last line without a newline and counts empty ranges from the line before', () => {
    expect(createUnifiedDiff({ path: 'p', before: 'a\nb', after: 'a\nb\n' })).toBe(
      `${HEADER('p')}@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n`,
    );
    expect(createUnifiedDiff({ path: 'p', before: '', after: 'new\n' })).toBe(`${HEADER('p')}@@ -0,0 +1,1 @@\n+new\n`);
    expect(createUnifiedDiff({ path: 'p', before: 'old\n', after: '' })).toBe(`${HEADER('p')}@@ -1,1 +0,0 @@\n-old\n`);
  });

  it('prints only the header when nothing changed, and treats CRLF like LF', () => {
    expect(createUnifiedDiff({ path: 'p', before: 'same\n', after: 'same\n' })).toBe(HEADER('p'));
    expect(createUnifiedDiff({ path: 'p', before: 'x\r\ny\r\n', after: 'x\ny\n' })).toBe(HEADER('p'));
  });

  it('puts removals before additions when a block is replaced', () => {
    expect(createUnifiedDiff({ path: 'p', before: 'a\nb\nc\n', after: 'x\ny\nc\n' })).toBe(
      `${HEADER('p')}@@ -1,3 +1,3 @@\n-a\n-b\n+x\n+y\n c\n`,
    );
  });
});
