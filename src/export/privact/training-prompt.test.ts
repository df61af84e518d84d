import { describe, expect, it } from 'vitest';
import { treeRunFixture } from './__fixtures__/tree-run-fixture.js';
import { DEFAULT_LC_ARS } from './lc-ars-reward.js';
import { buildPreferenceRecords } from './preference-records.js';
import { readTreeRun } from './read-tree-run.js';
import { promptText, upstreamSection } from './training-prompt.js';

const node = (role: 'generator' | 'verifier', output: string, nodeId: string) => ({
  nodeId,
  treeIndex: [],
  role,
  promptId: 'p',
  output,
  sampling: null,
  children: [],
});

describe('upstream-style training prompts', () => {
  it('a verifier sees a GENERATOR section and its own; a refiner sees its heading, the history and its instruction', () => {
    const g = node('generator', 'G OUT', 'r.0');
    const v = node('verifier', 'V OUT', 'r.0.0');
    const verifier = upstreamSection({ role: 'verifier', history: [g] });
    expect(verifier.split('\n\n')[0]).toBe('## GENERATOR\nG OUT');
    expect(verifier).toMatch(/\n\n## VERIFIER\nRead the Generator's response above\. Critique it for privacy/);
    const refiner = upstreamSection({ role: 'refiner', history: [g, v] });
    expect(refiner.startsWith('## REFINER\n\nReasoning so far in the multi-agent system:\n\n')).toBe(true);
    expect(refiner).toContain(
      "Generator's Response:\nG OUT\n\nVerifier's Critique:\nV OUT\n\nCombine the Generator's response",
    );
  });

  it('--prompt-style upstream puts the generator prompt first, then the role section', async () => {
    const run = await readTreeRun({ store: await treeRunFixture() });
    const tree = run.trees[0]?.tree;
    const generatorPrompt = tree?.prompts[tree.root.children[0]?.promptId ?? ''] ?? [];
    const records = buildPreferenceRecords({
      run,
      settings: { roles: ['verifier', 'refiner'], threshold: 0.5, lcars: DEFAULT_LC_ARS, promptStyle: 'upstream' },
    });
    expect(records).toHaveLength(6);
    for (const record of records) {
      expect(record.promptStyle).toBe('upstream');
      const text = promptText(record.prompt);
      expect(text.startsWith(`${promptText(generatorPrompt)}\n\n`)).toBe(true);
      expect(text.startsWith('You are the Generator')).toBe(true);
    }
    const verifier = records[0];
    expect(promptText(verifier?.prompt ?? [])).toContain('## GENERATOR\nThought: draft 0.');
    const refiner = records[1];
    expect(promptText(refiner?.prompt ?? [])).toContain(
      "## REFINER\n\nReasoning so far in the multi-agent system:\n\nGenerator's Response:\nThought: draft 0.",
    );
    expect(promptText(refiner?.prompt ?? [])).toContain("Verifier's Critique:\nThe draft shares nothing private.");
  });
});
