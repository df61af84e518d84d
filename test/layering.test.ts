import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The architecture's layering, lowest first. A module may import from its own layer's folder
 * and from any layer with a lower rank; same-rank siblings (e.g. judges/ and metrics/) may not
 * import each other, and one suite never imports another.
 */
const LAYER_RANK: Record<string, number> = {
  spec: 0,
  prompts: 0.5,
  models: 1,
  tools: 2,
  retrieval: 2,
  agents: 2,
  orchestration: 2,
  judges: 2,
  metrics: 2,
  datasets: 2,
  generation: 2.5,
  suites: 3,
  defenses: 3,
  store: 4,
  runner: 5,
  reports: 6,
  export: 6,
  cli: 7,
  index: 8,
};

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Test fixtures are test code: like *.test.ts they may reach any layer.
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) && !/\.contract\.ts$/.test(name) ? [path] : [];
  });
}

/** `suites/confaide/x.ts` → { layer: 'suites', unit: 'suites/confaide' }; `index.ts` → index. */
function locate(file: string): { layer: string; unit: string } {
  const parts = relative(srcDir, file).split(sep);
  const layer = parts.length === 1 ? 'index' : (parts[0] ?? '');
  const unit = layer === 'suites' && parts.length > 2 ? `suites/${parts[1]}` : layer;
  return { layer, unit };
}

/** Drops comments so that documentation may mention what code may not do. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function importsOf(text: string): string[] {
  const pattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? '');
}

function layeringViolations(files: Array<{ file: string; text: string }>): string[] {
  const violations: string[] = [];
  for (const { file, text } of files) {
    const from = locate(file);
    const fromRank = LAYER_RANK[from.layer];
    if (fromRank === undefined) {
      violations.push(`${relative(srcDir, file)}: folder '${from.layer}' is not in the layering table`);
      continue;
    }
    for (const specifier of importsOf(text)) {
      if (!specifier.startsWith('.')) continue;
      const target = locate(resolve(dirname(file), specifier));
      const targetRank = LAYER_RANK[target.layer];
      const where = `${relative(srcDir, file)} imports ${specifier}`;
      if (targetRank === undefined) violations.push(`${where}: unknown layer '${target.layer}'`);
      else if (target.unit === from.unit) continue;
      else if (
        target.layer === 'suites' &&
        from.unit !== 'suites' &&
        from.layer === 'suites' &&
        target.unit !== 'suites'
      ) {
        violations.push(`${where}: suites never import each other`);
      } else if (targetRank > fromRank || (targetRank === fromRank && target.layer !== from.layer)) {
        violations.push(`${where}: '${from.layer}' may not import from '${target.layer}'`);
      }
    }
  }
  return violations;
}

describe('layering', () => {
  it('every import in src/ points to its own layer or a lower one', () => {
    const files = sourceFiles(srcDir).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(layeringViolations(files)).toEqual([]);
  });

  it('only cli/ reads process.env or process.argv', () => {
    const offenders = sourceFiles(srcDir).filter(
      (file) =>
        locate(file).layer !== 'cli' &&
        /process\.(env|argv)|os\.homedir|homedir\(\)/.test(withoutComments(readFileSync(file, 'utf8'))),
    );
    expect(offenders.map((file) => relative(srcDir, file))).toEqual([]);
  });

  it('flags an upward import, a cross-suite import and a sibling import, and allows a downward one', () => {
    const at = (path: string, text: string) => ({ file: join(srcDir, path), text });
    expect(
      layeringViolations([at('suites/confaide/a.ts', "import { x } from '../../runner/run-evaluation.js';")]),
    ).toHaveLength(1);
    expect(layeringViolations([at('suites/confaide/a.ts', "import { y } from '../pac/suite.js';")])).toEqual([
      'suites/confaide/a.ts imports ../pac/suite.js: suites never import each other',
    ]);
    expect(layeringViolations([at('judges/a.ts', "import { m } from '../metrics/rate.js';")])).toHaveLength(1);
    expect(layeringViolations([at('suites/confaide/a.ts', "import type { S } from '../../spec/score.js';")])).toEqual(
      [],
    );
    expect(layeringViolations([at('suites/confaide/a.ts', "import { d } from '../suite.js';")])).toEqual([]);
  });
});
