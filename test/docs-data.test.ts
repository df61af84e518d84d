import { describe, expect, it } from 'vitest';
import { readDoc } from './support/docs-markdown.js';
import { repoRoot } from './support/test-data.js';
import { upstreamDataLine } from './support/upstream-data-reporter.js';

/**
 * docs/data.md quotes the line `npm test` ends with when upstream data is missing. Its counts are an
 * example, so this test rebuilds the tally from the quoted numbers and checks the line is exactly what
 * the reporter prints for them: a change to the reporter's wording fails here until the page follows.
 */
const markdown = readDoc(repoRoot, 'docs/data.md');

function quotedLine(): string {
  const match = /<!-- example: upstream-data-line -->\n```\n([^\n]*)\n```/.exec(markdown);
  if (!match) throw new Error('docs/data.md has no <!-- example: upstream-data-line --> block');
  return match[1]!;
}

describe('docs/data.md: the upstream-data line', () => {
  it('is what the reporter prints for the counts it quotes', () => {
    const line = quotedLine();
    const shape = /^upstream data: (\d+) of (\d+) data-dependent tests skipped \((.+); looked in ([^;]+)\); /.exec(
      line,
    );
    expect(shape, line).not.toBeNull();
    const [, skipped, total, per, dataDir] = shape!;
    const skippedByDataset = new Map(
      per!.split(', ').map((entry) => {
        const [, name, count] = /^(.+) (\d+)$/.exec(entry)!;
        return [name!, Number(count)] as const;
      }),
    );
    expect([...skippedByDataset.values()].reduce((sum, count) => sum + count, 0)).toBe(Number(skipped));
    expect([...skippedByDataset.keys()]).toEqual(['confaide', 'privacylens', 'pacbench']);
    const tally = { total: Number(total), skipped: Number(skipped), skippedByDataset };
    expect(line).toBe(upstreamDataLine({ tally, dataDir: dataDir! }));
  });
});
