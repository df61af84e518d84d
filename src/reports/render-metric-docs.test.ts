import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSuites } from '../suites/registry.js';
import { undefinedMetricIds } from '../suites/undefined-metric-ids.js';
import { METRICS_DOC_PATH, metricAnchor } from './metric-anchor.js';
import { renderMetricDocs, scaleText } from './render-metric-docs.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

const committed = () => readFileSync(new URL(`../../${METRICS_DOC_PATH}`, import.meta.url), 'utf8');

/** Option sets that switch on every metric a suite can report (tiers, proxy judge, calibration task). */
const OPTION_SETS: ReadonlyArray<{ suite: string; options: Record<string, unknown> }> = [
  { suite: 'confaide', options: { tier: '1' } },
  { suite: 'confaide', options: { tier: '3', tier3Proxy: 'on' } },
  { suite: 'confaide', options: { tier: '4' } },
  { suite: 'pac', options: {} },
  { suite: 'privacybench', options: {} },
  { suite: 'privacybench-calibration', options: {} },
  { suite: 'privacylens', options: {} },
  { suite: 'privact-tree', options: { topology: 'G>V>R' } },
  { suite: 'privact-tree', options: { topology: 'E>C>X' } },
  { suite: 'toy-leak', options: {} },
];

describe('docs/metrics.md', () => {
  it('is the output of `npm run docs:metrics` (regenerate it after changing a metric definition)', () => {
    expect(committed(), 'docs/metrics.md is stale: run `npm run docs:metrics` and commit the result').toBe(
      renderMetricDocs(suites),
    );
  });

  it('gives every metric of every suite its own anchor, linked from the suite table', () => {
    const text = renderMetricDocs(suites);
    const anchors = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]);
    expect(new Set(anchors).size).toBe(anchors.length);
    for (const suite of suites) {
      expect(anchors).toContain(suite.id);
      for (const definition of suite.metrics.definitions) {
        const anchor = metricAnchor({ suite: suite.id, id: definition.id });
        expect(anchors).toContain(anchor);
        expect(text).toContain(`](#${anchor})`);
      }
    }
  });

  it('renders scales with their stored range', () => {
    expect(scaleText({ scale: 'percent', range: { min: 0, max: 1 } })).toBe('percent (stored 0 to 1, shown ×100)');
    expect(scaleText({ scale: 'raw', range: { min: 0, max: 3 } })).toBe('raw, 0 to 3');
    expect(scaleText({ scale: 'count' })).toBe('count (whole number)');
  });
});

describe('metric definitions', () => {
  it('are complete and unique within each suite', () => {
    for (const suite of suites) {
      const ids = suite.metrics.definitions.map((definition) => definition.id);
      expect(new Set(ids).size, suite.id).toBe(ids.length);
      for (const definition of suite.metrics.definitions) {
        const where = `${suite.id}/${definition.id}`;
        for (const field of ['label', 'definition', 'formula', 'denominator'] as const) {
          expect(definition[field].trim(), `${where} ${field}`).not.toBe('');
        }
        expect(definition.source.reference.trim(), `${where} source`).not.toBe('');
        expect(definition.denominator, `${where} says what n counts`).toMatch(/^n: /);
        if (definition.scale === 'percent') expect(definition.range, where).toEqual({ min: 0, max: 1 });
      }
      for (const id of suite.report?.headline ?? []) expect(ids, `${suite.id} headline ${id}`).toContain(id);
    }
  });

  it.each(OPTION_SETS)('cover every metric $suite reports with $options', ({ suite: id, options }) => {
    const suite = findSuite(id);
    const parsed = suite.options.parse(options);
    const summary = suite.metrics.compute({ records: [], options: parsed });
    expect(Object.keys(summary.metrics).length).toBeGreaterThan(0);
    expect(undefinedMetricIds({ suite, summary })).toEqual([]);
  });
});
