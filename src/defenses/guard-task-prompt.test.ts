import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { conversationText, GUARD_INSTRUCTION, generationText, guardTaskPrompt } from './guard-task-prompt.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;

const prompt: CallOptions['prompt'] = [
  { role: 'system', content: 'You are an office assistant.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Send the scan to Bob.' },
      { type: 'file', mediaType: 'image/png', filename: 'scan.png', data: 'AAAA' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'private thoughts' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { name: 'Bob' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'lookup',
        output: { type: 'json', value: { email: 'bob@x' } },
      },
    ],
  },
];

describe('guardTaskPrompt', () => {
  it('renders the conversation as a transcript without reasoning', () => {
    expect(conversationText(prompt)).toBe(
      'User: Send the scan to Bob.\n[file image/png scan.png]\n\n' +
        'Assistant: [tool call lookup with input {"name":"Bob"}]\n\n' +
        'Tool: [tool lookup returned: {"email":"bob@x"}]',
    );
  });

  it('puts norms, app instructions and conversation into sections and renders system + user', () => {
    const task = guardTaskPrompt({ prompt, norms: ['Scans go only to their owner.', 'No health data.'] });
    expect(task.sections.map((section) => section.id)).toEqual(['norms', 'app-instructions', 'conversation']);
    expect(task.sections[0]?.body).toBe('- Scans go only to their owner.\n- No health data.');
    const [system, user] = task.render({ systemLine: 'ROLE LINE' });
    expect(system).toEqual({ role: 'system', content: 'ROLE LINE' });
    expect(user?.content).toContain('## Privacy norms of this application (who may learn what)\n- Scans go only');
    expect(user?.content).toContain("## The application's instructions\nYou are an office assistant.");
    expect(user?.content.endsWith(GUARD_INSTRUCTION)).toBe(true);
  });

  it("describes the wrapped model's generation as text followed by its tool calls", () => {
    const result: GenerateResult = {
      content: [
        { type: 'text', text: 'Sending now.' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'send', input: '{"to":"bob"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    };
    expect(generationText(result)).toBe('Sending now.\n[tool call send with input {"to":"bob"}]');
  });
});
