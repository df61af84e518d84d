import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Message } from '../spec/message.js';
import type { TaskPrompt } from '../spec/task-prompt.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type SdkPrompt = CallOptions['prompt'];
type SdkMessage = SdkPrompt[number];
type SdkPart = SdkMessage['content'] extends infer Content
  ? Content extends ReadonlyArray<infer Part>
    ? Part
    : never
  : never;
type SdkGenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;

/** What the reply stages are asked to write at the model boundary. */
export const GUARD_INSTRUCTION =
  "Write the assistant's next reply in the conversation above, as plain text addressed to the user.";

function toolOutputText(output: unknown): string {
  if (typeof output === 'object' && output !== null && 'type' in output && 'value' in output) {
    const { type, value } = output as { type: string; value: unknown };
    if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value;
    return JSON.stringify(value);
  }
  return JSON.stringify(output);
}

function partText(part: SdkPart): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'file':
      return `[file ${part.mediaType}${part.filename ? ` ${part.filename}` : ''}]`;
    case 'tool-call':
      return `[tool call ${part.toolName} with input ${JSON.stringify(part.input)}]`;
    case 'tool-result':
      return `[tool ${part.toolName} returned: ${toolOutputText(part.output)}]`;
    default:
      // Reasoning and approval bookkeeping are not part of what the reviewers judge.
      return undefined;
  }
}

const SPEAKER: Record<SdkMessage['role'], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};

/** The conversation as a transcript: `User: …`, `Assistant: …`, tool calls and results in brackets. */
export function conversationText(prompt: SdkPrompt): string {
  return prompt
    .filter((message) => message.role !== 'system')
    .map((message) => {
      const parts = (message.content as readonly SdkPart[]).map(partText).filter((text) => text !== undefined);
      return `${SPEAKER[message.role]}: ${parts.join('\n')}`;
    })
    .join('\n\n');
}

/**
 * The task at the model boundary as a TaskPrompt, so the chain's stage prompts apply
 * unchanged: the app's norms, the app's own system instructions and the conversation are
 * sections; the instruction asks for the assistant's next reply. It renders as a system
 * message (the role line) plus one user message, from a closure.
 */
export function guardTaskPrompt({ prompt, norms }: { prompt: SdkPrompt; norms: readonly string[] }): TaskPrompt {
  const system = prompt.flatMap((message) => (message.role === 'system' ? [message.content] : []));
  const sections: TaskPrompt['sections'] = [
    {
      id: 'norms',
      title: 'Privacy norms of this application (who may learn what)',
      body: norms.map((norm) => `- ${norm}`).join('\n'),
    },
    ...(system.length > 0
      ? [{ id: 'app-instructions', title: "The application's instructions", body: system.join('\n\n') }]
      : []),
    { id: 'conversation', title: 'Conversation so far', body: conversationText(prompt) },
  ];
  const task: TaskPrompt = {
    systemLine: '',
    sections,
    instruction: GUARD_INSTRUCTION,
    render: (overrides = {}): Message[] => [
      { role: 'system', content: overrides.systemLine ?? task.systemLine },
      {
        role: 'user',
        content: [
          ...task.sections.map((section) => `## ${section.title}\n${section.body}`),
          overrides.instruction ?? task.instruction,
        ].join('\n\n'),
      },
    ],
  };
  return task;
}

/** The wrapped model's own generation as the Generator's output: its text, then its tool calls. */
export function generationText(result: SdkGenerateResult): string {
  const parts: string[] = [];
  for (const part of result.content) {
    if (part.type === 'text' && part.text !== '') parts.push(part.text);
    if (part.type === 'tool-call') parts.push(`[tool call ${part.toolName} with input ${part.input}]`);
  }
  return parts.join('\n');
}
