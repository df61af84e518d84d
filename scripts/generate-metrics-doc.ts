// Regenerates docs/metrics.md from the suites' metric definitions:
//   npm run docs:metrics
// A test (src/reports/render-metric-docs.test.ts) fails when the committed file differs from this output.
import { writeFileSync } from 'node:fs';
import { METRICS_DOC_PATH } from '../src/reports/metric-anchor.js';
import { renderMetricDocs } from '../src/reports/render-metric-docs.js';
import { loadSuites } from '../src/suites/registry.js';

const target = new URL(`../${METRICS_DOC_PATH}`, import.meta.url);
writeFileSync(target, renderMetricDocs(await loadSuites()));
console.log(`wrote ${METRICS_DOC_PATH}`);
