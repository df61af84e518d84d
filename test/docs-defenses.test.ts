import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defenseRegistry } from '../src/defenses/registry.js';
import { repoRoot } from './support/test-data.js';

describe('docs/defenses.md', () => {
  const markdown = readFileSync(join(repoRoot, 'docs', 'defenses.md'), 'utf8');

  it.each(defenseRegistry.map((entry) => [entry.id, entry]))(
    'covers the registered defense %s and its aliases',
    (_id, entry) => {
      const missing = [entry.id, ...entry.aliases].filter((name) => !markdown.includes(`\`${name}`));
      expect(missing).toEqual([]);
    },
  );
});
