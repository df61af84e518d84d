import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuites } from '../src/suites/registry.js';
import { repoRoot } from './support/test-data.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

const page = readFileSync(join(repoRoot, 'docs', 'fidelity.md'), 'utf8');

/** The text of the page's section whose heading names the suite id in backquotes. */
function section(suiteId: string): string {
  const parts = page.split(/^## /m);
  const found = parts.find((part) => (part.split('\n')[0] ?? '').includes(`\`${suiteId}\``));
  if (found === undefined) throw new Error(`docs/fidelity.md has no section for ${suiteId}`);
  return found;
}

describe('docs/fidelity.md', () => {
  it.each(['pac', 'privacylens', 'confaide', 'privact-tree', 'privacybench'])(
    'names every option --fidelity upstream sets for %s, with its upstream value, in its section',
    (suiteId) => {
      const suite = findSuite(suiteId);
      const text = section(suiteId === 'privact-tree' ? 'privacylens' : suiteId);
      for (const [key, value] of Object.entries(suite.upstreamOptions ?? {})) {
        expect(text, `${suiteId}: ${key}=${String(value)}`).toContain(`\`${key}=${String(value)}\``);
      }
      // Every suite is covered by the page, including those without departures.
      expect(section(suiteId)).not.toBe('');
    },
  );

  it('says so for a suite without departures, and the suite declares none', () => {
    expect(findSuite('privacybench').upstreamOptions ?? {}).toEqual({});
    expect(section('privacybench')).toContain('changes nothing for this suite');
  });
});
