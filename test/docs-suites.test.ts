import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteDocPath, updateGeneratedParts } from '../scripts/suite-docs.js';
import { parsePacScenarioFile } from '../src/suites/pac/index.js';
import { loadSuites } from '../src/suites/registry.js';
import { repoRoot } from './support/test-data.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

/**
 * `docs/suites/<suite>.md`: one page per benchmark suite, whose option and preset tables are
 * generated from the suite's schema (`npm run docs:suites`), and whose bring-your-own-data example
 * files under `docs/suites/examples/<suite>/` load through the suite's own loader.
 */

const DOCUMENTED = ['confaide', 'pac', 'privacybench', 'privacybench-calibration', 'privacylens', 'privact-tree'];
const examples = (suite: string) => join(repoRoot, 'docs', 'suites', 'examples', suite);

describe('docs/suites pages', () => {
  it('every registered suite but the tutorial suite has a page', () => {
    const ids = suites.map((suite) => suite.id).filter((id) => id !== 'toy-leak');
    expect(ids.sort()).toEqual([...DOCUMENTED].sort());
    for (const id of ids) expect(existsSync(join(repoRoot, suiteDocPath(id))), suiteDocPath(id)).toBe(true);
  });

  it.each(DOCUMENTED)('%s: the generated option and preset tables match the schema (npm run docs:suites)', (id) => {
    const markdown = readFileSync(join(repoRoot, suiteDocPath(id)), 'utf8');
    expect(markdown).toBe(updateGeneratedParts({ markdown, suite: findSuite(id) }));
  });

  it('the option table names every option key, its flag and its default', () => {
    const markdown = readFileSync(join(repoRoot, suiteDocPath('confaide')), 'utf8');
    expect(markdown).toContain('| `tier` | `--tier` | string | `1`, `3`, `4`, `2a`, `2b` | **required** |');
    expect(markdown).toContain('| `tier3Proxy` |  | string | `on`, `off` | `off` |');
  });
});

describe('bring-your-own-data examples load through the suites’ loaders', () => {
  it('confaide: every tier of docs/suites/examples/confaide', async () => {
    const suite = findSuite('confaide');
    const counts: Record<string, number> = {};
    for (const tier of ['1', '2a', '2b', '3', '4']) {
      const scenarios = await suite.dataset.load({
        dataDir: examples('confaide'),
        options: suite.options.parse({ tier }),
      });
      counts[tier] = scenarios.length;
    }
    expect(counts).toEqual({ '1': 3, '2a': 3, '2b': 3, '3': 2, '4': 1 });
    const [story] = await suite.dataset.load({
      dataDir: examples('confaide'),
      options: suite.options.parse({ tier: '3' }),
    });
    expect(story).toMatchObject({ subject: 'Mia', aware: 'Ines', oblivious: 'Leo', secret: 'Debt' });
  });

  it('privacylens and privact-tree: docs/suites/examples/privacylens', async () => {
    const lens = findSuite('privacylens');
    const cases = await lens.dataset.load({ dataDir: examples('privacylens'), options: lens.options.parse({}) });
    expect(cases.map((scenario) => lens.dataset.id(scenario))).toEqual(['example1', 'example2']);
    const tree = findSuite('privact-tree');
    const trees = await tree.dataset.load({
      dataDir: examples('privacylens'),
      options: tree.options.parse({ split: 'all' }),
    });
    expect(trees).toHaveLength(2);
  });

  it('pac: docs/suites/examples/pac holds one range scenario', async () => {
    const suite = findSuite('pac');
    const scenarios = await suite.dataset.load({
      dataDir: examples('pac'),
      options: suite.options.parse({ split: 'range' }),
    });
    expect(scenarios.map((scenario) => suite.dataset.id(scenario))).toEqual([
      expect.stringContaining('Community_Gardens'),
    ]);
  });

  it('pac: the N-party example of docs/suites/pac.md loads, with its names, setting and audiences', () => {
    const markdown = readFileSync(join(repoRoot, suiteDocPath('pac')), 'utf8');
    const section = markdown.slice(markdown.indexOf('## N-party scenarios'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const ref = { path: 'pac.md', id: 'custom/doc', split: 'custom', policyType: 'range', domain: 'Doc' } as const;
    const { scenario } = parsePacScenarioFile({ json: JSON.parse(block), ref });
    expect(scenario.messaging).toBe('direct');
    expect(scenario.context).toContain('laser cutters');
    expect(scenario.agents.map((agent) => `${agent.id}:${agent.displayName}:${agent.role}`)).toEqual([
      'buyer:Priya:Buyer',
      'north:Tomas:Supplier',
      'harbor:Lena:Supplier',
    ]);
    expect(scenario.agents.map((agent) => agent.policies[0]?.audience)).toEqual([
      undefined,
      { allowedRecipients: ['buyer'] },
      { minClearance: 2 },
    ]);
  });

  it('privacybench: docs/suites/examples/privacybench/community', async () => {
    const suite = findSuite('privacybench');
    const options = suite.options.parse({ community: join(examples('privacybench'), 'community') });
    const scenarios = await suite.dataset.load({ dataDir: join(repoRoot, 'no-data-dir'), options });
    expect(scenarios.map((scenario) => suite.dataset.id(scenario)).sort()).toEqual([
      expect.stringContaining('s-visa'),
      expect.stringContaining('s-visa'),
      expect.stringContaining('s-visa'),
      expect.stringContaining('s-visa'),
    ]);
  });
});
