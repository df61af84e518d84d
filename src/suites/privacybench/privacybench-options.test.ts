import { describe, expect, it } from 'vitest';
import {
  needsEmbedderRole,
  privacyBenchOptionsSchema,
  resolveOptions,
  usesJudgeModel,
} from './privacybench-options.js';

const parse = (raw: Record<string, unknown>) => privacyBenchOptionsSchema.parse(raw);
const issues = (raw: Record<string, unknown>) => {
  const result = privacyBenchOptionsSchema.safeParse(raw);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('privacyBenchOptionsSchema', () => {
  it('takes every recommended default', () => {
    const options = resolveOptions(parse({}));
    expect(options).toMatchObject({
      community: 'starter',
      strategies: ['direct', 'indirect'],
      probersPerSecret: { authorized: 1, unauthorized: 1 },
      conversationTime: 'timeline-end',
      groupConfidants: 'members-at-share',
      chunking: { kind: 'message' },
      dateFilter: 'on',
      topK: 5,
      queryWindow: 3,
      retriever: 'bm25',
      framing: 'digital-twin',
      maxRounds: 10,
      earlyStop: 'on',
      earlyStopJudge: 'first',
      judges: ['leak', 'persona', 'canary'],
      judgeProtocol: 'json',
      irrMode: 'provenance',
      pcScope: 'all',
    });
    expect(usesJudgeModel(options)).toBe(true);
  });

  it('parses the alternatives, one --set away each', () => {
    const options = resolveOptions(
      parse({
        strategies: 'direct',
        probersPerSecret: '2,1',
        chunking: 'window:3',
        earlyStop: false,
        rounds: 4,
        retrieval: 'vector',
        embedder: 'hashing:384',
        judges: 'canary',
      }),
    );
    expect(options).toMatchObject({
      strategies: ['direct'],
      probersPerSecret: { authorized: 2, unauthorized: 1 },
      chunking: { kind: 'window', size: 3 },
      earlyStop: 'off',
      maxRounds: 4,
      retriever: 'vector',
      judges: ['canary'],
    });
    expect(usesJudgeModel(options)).toBe(false);
  });

  it('rejects bad values with a message that says what is accepted', () => {
    expect(issues({ strategies: 'sideways' })).toEqual([
      expect.stringMatching(/strategies: .*'direct' and\/or 'indirect'/),
    ]);
    expect(issues({ judges: 'persona' })).toEqual([expect.stringMatching(/include leak \(LLM\) or canary/)]);
    expect(issues({ maxRounds: 3, rounds: 4 })).toEqual([
      expect.stringMatching(/^rounds: rounds is an alias of maxRounds/),
    ]);
    expect(issues({ topk: 3 })).toHaveLength(1);
  });

  it('needs the embedder role for vector retrieval (--set embedder binds it)', () => {
    expect(issues({ retriever: 'vector' })).toEqual([]);
    expect(needsEmbedderRole(parse({}))).toBe(false);
    expect(needsEmbedderRole(parse({ retriever: 'vector' }))).toBe(true);
    expect(needsEmbedderRole(parse({ retrieval: 'vector' }))).toBe(true);
    expect(needsEmbedderRole(parse({ retriever: 'vector', embedder: 'hashing:384' }))).toBe(true);
    expect(needsEmbedderRole(parse({ retriever: 'bm25', embedder: 'hashing:384' }))).toBe(false);
  });
});
