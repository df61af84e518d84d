import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Tool, toolKindSchema, toolOutputSchema } from './tool.js';

describe('tool contracts', () => {
  it('accepts the four kinds and nothing else', () => {
    expect(toolKindSchema.options).toEqual(['read', 'write', 'egress', 'think']);
    expect(toolKindSchema.safeParse('delete').success).toBe(false);
  });

  it('validates tool outputs', () => {
    expect(toolOutputSchema.parse({ content: 'ok' })).toEqual({ content: 'ok' });
    expect(toolOutputSchema.parse({ content: 'no', isError: true })).toEqual({ content: 'no', isError: true });
    expect(toolOutputSchema.safeParse({ content: 3 }).success).toBe(false);
  });

  it('lets a tool give a per-call kind next to its declared one', async () => {
    const note: Tool<{ target: 'self' | 'team'; text: string }> = {
      name: 'note',
      description: 'Write a note.',
      inputSchema: z.object({ target: z.enum(['self', 'team']), text: z.string() }),
      kind: 'write',
      kindOf: (input) => (input.target === 'team' ? 'egress' : 'write'),
      execute: async ({ input, context }) => ({ content: `${context.participantId} noted ${input.text}` }),
    };
    const input = note.inputSchema.parse({ target: 'team', text: 'hi' });
    expect(note.kindOf?.(input)).toBe('egress');
    expect(await note.execute({ input, context: { participantId: 'agent_a' } })).toEqual({
      content: 'agent_a noted hi',
    });
  });
});
