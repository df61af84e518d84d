import { describe, expect, it } from 'vitest';
import { DEFAULT_LC_ARS } from './privact/lc-ars-reward.js';
import type { PreferenceRecord } from './privact/preference-records.js';
import {
  formatExtension,
  PREFERENCE_FORMATS,
  writePreferenceMeta,
  writePreferencePairs,
} from './write-preference-pairs.js';

const record = (index: number, prompt: PreferenceRecord['prompt']): PreferenceRecord => ({
  runId: 'run-1',
  sampleId: `main${index}#e1`,
  caseName: `main${index}`,
  role: index % 2 === 0 ? 'verifier' : 'refiner',
  parentNodeId: 'r.0',
  promptId: `p${index}`,
  prompt,
  chosen: { nodeId: 'r.0.1', treeIndex: [0, 1], output: `good ${index} "quoted"\nline`, value: 0.75 },
  rejected: { nodeId: 'r.0.0', treeIndex: [0, 0], output: `bad ${index}`, value: -1 },
  threshold: 0.5,
  lcars: DEFAULT_LC_ARS,
  judgeVersions: ['privacylens-leak@1', 'privacylens-helpfulness@1'],
  promptStyle: 'inference',
});

const single = [record(1, [{ role: 'user', content: 'You are the Refiner.\n\nDo it.' }])];
const layered = [
  record(2, [
    { role: 'system', content: 'You are the Verifier.' },
    { role: 'user', content: 'Context.' },
  ]),
];
const records = [...single, ...layered];

const lines = (text: string) => {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};

describe('writePreferencePairs', () => {
  it('trl: one {prompt, chosen, rejected} per line, the prompt as plain text', () => {
    const parsed = lines(writePreferencePairs({ records, format: 'trl' }));
    expect(parsed).toEqual([
      { prompt: 'You are the Refiner.\n\nDo it.', chosen: 'good 1 "quoted"\nline', rejected: 'bad 1' },
      { prompt: 'You are the Verifier.\n\nContext.', chosen: 'good 2 "quoted"\nline', rejected: 'bad 2' },
    ]);
    for (const line of parsed) expect(Object.keys(line).sort()).toEqual(['chosen', 'prompt', 'rejected']);
  });

  it('chat: the prompt as messages, chosen and rejected as one assistant message each', () => {
    const parsed = lines(writePreferencePairs({ records, format: 'chat' }));
    expect(parsed[1]).toEqual({
      prompt: [
        { role: 'system', content: 'You are the Verifier.' },
        { role: 'user', content: 'Context.' },
      ],
      chosen: [{ role: 'assistant', content: 'good 2 "quoted"\nline' }],
      rejected: [{ role: 'assistant', content: 'bad 2' }],
    });
  });

  it('openai: input.messages, preferred_output and non_preferred_output, and nothing else', () => {
    const parsed = lines(writePreferencePairs({ records, format: 'openai' }));
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toEqual({
      input: { messages: [{ role: 'user', content: 'You are the Refiner.\n\nDo it.' }] },
      preferred_output: [{ role: 'assistant', content: 'good 1 "quoted"\nline' }],
      non_preferred_output: [{ role: 'assistant', content: 'bad 1' }],
    });
    for (const line of parsed)
      expect(Object.keys(line).sort()).toEqual(['input', 'non_preferred_output', 'preferred_output']);
  });

  it('privact: one JSON array indented by 2 of {name, chosen, rejected, prompt}', () => {
    const text = writePreferencePairs({ records, format: 'privact' });
    expect(text.startsWith('[\n  {\n    "name": "main1"')).toBe(true);
    expect(JSON.parse(text)).toEqual([
      { name: 'main1', chosen: 'good 1 "quoted"\nline', rejected: 'bad 1', prompt: 'You are the Refiner.\n\nDo it.' },
      {
        name: 'main2',
        chosen: 'good 2 "quoted"\nline',
        rejected: 'bad 2',
        prompt: 'You are the Verifier.\n\nContext.',
      },
    ]);
  });

  it('no pairs: empty JSON Lines, an empty array for privact', () => {
    for (const format of PREFERENCE_FORMATS) {
      expect(writePreferencePairs({ records: [], format })).toBe(format === 'privact' ? '[]\n' : '');
    }
    expect(formatExtension('privact')).toBe('.json');
    expect(formatExtension('openai')).toBe('.jsonl');
  });
});

describe('writePreferenceMeta', () => {
  it('one sidecar line per pair, aligned with the pairs file', () => {
    const meta = lines(writePreferenceMeta({ records }));
    expect(meta).toHaveLength(2);
    expect(meta[0]).toEqual({
      runId: 'run-1',
      sampleId: 'main1#e1',
      caseName: 'main1',
      role: 'refiner',
      parentNodeId: 'r.0',
      promptId: 'p1',
      chosenNodeId: 'r.0.1',
      rejectedNodeId: 'r.0.0',
      chosenTreeIndex: [0, 1],
      rejectedTreeIndex: [0, 0],
      valueChosen: 0.75,
      valueRejected: -1,
      threshold: 0.5,
      lcars: { alpha: 0.5, beta: 2, b1: 0, b2: 0.45, form: 'code', noActionReward: 'b2' },
      judgeVersions: ['privacylens-leak@1', 'privacylens-helpfulness@1'],
      promptMode: 'inference',
    });
    expect(meta[1]?.caseName).toBe('main2');
    expect(writePreferenceMeta({ records: [] })).toBe('');
  });
});
