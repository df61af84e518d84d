// Rewrites the generated parts (options, presets) of docs/suites/<suite>.md from the suites' schemas:
//   npm run docs:suites
// A test (test/docs-suites.test.ts) fails when a committed page differs from this output.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadSuites } from '../src/suites/registry.js';
import { suiteDocPath, updateGeneratedParts } from './suite-docs.js';

for (const suite of await loadSuites()) {
  const target = new URL(`../${suiteDocPath(suite.id)}`, import.meta.url);
  if (!existsSync(target)) continue;
  const markdown = readFileSync(target, 'utf8');
  const updated = updateGeneratedParts({ markdown, suite });
  if (updated !== markdown) {
    writeFileSync(target, updated);
    console.log(`wrote ${suiteDocPath(suite.id)}`);
  }
}
