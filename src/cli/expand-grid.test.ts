import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { expandGrid } from './expand-grid.js';

describe('expandGrid', () => {
  it('turns one --grid flag into one role binding per spec', () => {
    expect(expandGrid('agent-a=openai:gpt-5.1, anthropic:claude-sonnet-4-5')).toEqual([
      'agent-a=openai:gpt-5.1',
      'agent-a=anthropic:claude-sonnet-4-5',
    ]);
  });

  it('keeps a multi-URL endpoint pool inside its spec', () => {
    expect(expandGrid('agent-b=vllm:llama@http://h1:8000/v1,http://h2:8000/v1,reference:naive')).toEqual([
      'agent-b=vllm:llama@http://h1:8000/v1,http://h2:8000/v1',
      'agent-b=reference:naive',
    ]);
  });

  it('rejects a flag without specs', () => {
    expect(() => expandGrid('agent-a=')).toThrow(PlanValidationError);
    expect(() => expandGrid('agent-a')).toThrow(/role=spec1,spec2/);
  });
});
