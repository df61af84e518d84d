import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractLinks, headingAnchors, listDocFiles, readDoc } from './support/docs-markdown.js';
import { repoRoot } from './support/test-data.js';

/**
 * No link in README.md or docs/ points to a file that is not in the repository, or to an anchor
 * that the target's headings do not define. Links to other sites are not fetched (no network).
 */

const files = listDocFiles(repoRoot);

/** What is wrong with one link, or null when it resolves. */
function brokenLink({ file, target }: { file: string; target: string }): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const hash = target.indexOf('#');
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
  if (resolved.startsWith('..')) return `points outside the repository (${resolved})`;
  const absolute = join(repoRoot, resolved);
  if (!existsSync(absolute)) return `${resolved} does not exist`;
  if (anchor === undefined) return null;
  if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) return `#${anchor} on a file that is not Markdown`;
  return headingAnchors(readDoc(repoRoot, resolved)).has(anchor) ? null : `${resolved} has no heading #${anchor}`;
}

describe('links in README.md and docs/', () => {
  it('finds the doc pages', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/metrics.md');
  });

  it.each(files)('%s: every relative link resolves', (file) => {
    const broken = extractLinks({ file, markdown: readDoc(repoRoot, file) }).flatMap((link) => {
      const problem = brokenLink(link);
      return problem === null ? [] : [`${file}:${link.line}: (${link.target}) ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  it('README.md links every page under docs/', () => {
    const linked = new Set(
      extractLinks({ file: 'README.md', markdown: readDoc(repoRoot, 'README.md') }).map(
        (link) => link.target.split('#')[0],
      ),
    );
    const pages = files.filter((file) => file.startsWith('docs/') && !file.startsWith('docs/suites/examples/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
