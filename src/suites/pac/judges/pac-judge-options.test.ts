import { describe, expect, it } from 'vitest';
import { DEFAULT_PAC_JUDGE_OPTIONS, PAC_JUDGE_UPSTREAM_OPTIONS, pacJudgeOptionsSchema } from './pac-judge-options.js';

describe('pacJudgeOptionsSchema', () => {
  it('defaults to the code-faithful modes over messages', () => {
    expect(DEFAULT_PAC_JUDGE_OPTIONS).toEqual({
      taskMode: 'messages',
      privacyMode: 'keyword-awareness',
      privacyAgents: 'all',
      privacyChannels: ['messages'],
      grounding: true,
      gevalSamples: 1,
      judgeErrorRuns: false,
      judgeParse: 'strict',
      keywordMatch: 'word',
    });
    expect(PAC_JUDGE_UPSTREAM_OPTIONS).toEqual({
      judgeParse: 'upstream',
      keywordMatch: 'upstream',
      privacyAgents: 'initiator',
    });
    expect(pacJudgeOptionsSchema.parse(PAC_JUDGE_UPSTREAM_OPTIONS)).toMatchObject(PAC_JUDGE_UPSTREAM_OPTIONS);
  });

  it('reads a comma list of channels into canonical order without duplicates', () => {
    const options = pacJudgeOptionsSchema.parse({ privacyChannels: 'artifacts, messages,artifacts,tool-arguments' });
    expect(options.privacyChannels).toEqual(['messages', 'tool-arguments', 'artifacts']);
    expect(pacJudgeOptionsSchema.parse({ privacyChannels: ['artifacts'] }).privacyChannels).toEqual(['artifacts']);
  });

  it('rejects unknown modes and channels, an empty channel list and out-of-range samples', () => {
    expect(pacJudgeOptionsSchema.safeParse({ taskMode: 'final' }).success).toBe(false);
    expect(pacJudgeOptionsSchema.safeParse({ privacyMode: 'llm' }).success).toBe(false);
    expect(pacJudgeOptionsSchema.safeParse({ privacyChannels: 'messages,files' }).success).toBe(false);
    expect(pacJudgeOptionsSchema.safeParse({ privacyChannels: '' }).success).toBe(false);
    expect(pacJudgeOptionsSchema.safeParse({ gevalSamples: 0 }).success).toBe(false);
    expect(pacJudgeOptionsSchema.safeParse({ gevalSamples: 21 }).success).toBe(false);
  });

  it('keeps other suite options out of its result', () => {
    expect(pacJudgeOptionsSchema.parse({ split: 'range', taskMode: 'markers' })).toEqual({
      ...DEFAULT_PAC_JUDGE_OPTIONS,
      taskMode: 'markers',
    });
  });
});
