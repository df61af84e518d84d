import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJudgeTemplate } from '../../../judges/index.js';
import { PromptTemplateError } from '../../../prompts/index.js';
import { defineJsonJudge } from './define-json-judge.js';

const templateOf = (protocol: string) =>
  parseJudgeTemplate({
    source: 'inline:test',
    text: `---\nid: t\nversion: 1\nprotocol: ${protocol}\noutput: o\ninputs: [x]\n---\n{{x}}`,
  });

describe('defineJsonJudge', () => {
  it('returns a JSON judge unchanged and rejects an answer-line template', () => {
    const schema = z.object({ ok: z.boolean() });
    const toVerdict = () => ({ verdict: 'pass' as const, value: 1 });
    const judge = defineJsonJudge({ template: templateOf('json'), schema, toVerdict });
    expect(judge.schema).toBe(schema);
    expect(() => defineJsonJudge({ template: templateOf('answer-line'), schema, toVerdict })).toThrow(
      PromptTemplateError,
    );
  });
});
