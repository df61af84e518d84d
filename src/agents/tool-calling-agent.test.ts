import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractReasoningMiddleware } from '../models/middleware/extract-reasoning-middleware.js';
import { MockChatModel, type MockStep } from '../models/testing/mock-chat-model.js';
import { wrapChatModel } from '../models/wrap-chat-model.js';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import type { BoundModel, GenerateResult } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import { ParticipantTurnError } from '../spec/participant.js';
import type { Tool } from '../spec/tool.js';
import { serveToolsInProcess } from '../tools/in-process-mcp-server.js';
import { McpToolSource } from '../tools/mcp-tool-source.js';
import type { AgentToolbox } from './agent-toolbox.js';
import { createToolCallingAgent, toolLimitMessage } from './tool-calling-agent.js';
import { EmptyReplyError, TurnLimitError } from './turn-errors.js';

function bound(script: MockStep[] | ((request: unknown, index: number) => MockStep)): {
  model: BoundModel;
  mock: MockChatModel;
} {
  const mock = new MockChatModel({ script, usage: { inputTokens: 100, outputTokens: 10 } });
  const withReasoning = wrapChatModel({ model: mock, middleware: [extractReasoningMiddleware()] });
  return {
    mock,
    model: {
      role: 'agent-a',
      provider: 'mock',
      modelId: 'scripted',
      generate: (request) => withReasoning.generate(request, { role: 'agent-a' }),
    },
  };
}

function toolCalls(...names: string[]): GenerateResult {
  return {
    text: '',
    toolCalls: names.map((name, index) => ({
      id: `call-${index}`,
      name,
      input: { path: `/workspace/shared/${index}` },
    })),
    finishReason: 'tool-calls',
    usage: { inputTokens: 100, outputTokens: 10 },
    warnings: [],
  };
}

/** A toolbox that answers every call with its name and path; `failFirst` executions throw. */
function echoToolbox(failFirst = 0): { toolbox: AgentToolbox; executed: string[] } {
  const executed: string[] = [];
  let failures = 0;
  return {
    executed,
    toolbox: {
      listTools: async () => [{ name: 'write', description: 'writes a file', inputSchema: { type: 'object' } }],
      callTool: async ({ name, input }) => {
        if (failures < failFirst) {
          failures += 1;
          throw new Error('tool server crashed');
        }
        const path = (input as { path: string }).path;
        executed.push(path);
        return { content: `${name} ok ${path}`, isError: false, kind: 'egress' };
      },
    },
  };
}

async function oneTurn(options: Parameters<typeof createToolCallingAgent>[0]) {
  const agent = createToolCallingAgent(options);
  const state = agent.initialState({ participantIds: ['agent_a', 'agent_b'] });
  return agent.respond({ inbox: [{ role: 'user', content: 'start' }], state, turn: 1 });
}

describe('createToolCallingAgent', () => {
  it('runs tools until the model stops asking, and delivers the stripped last text', async () => {
    const { model, mock } = bound([toolCalls('write'), '<think>keep the names out</think>Here is the schedule. [FIN]']);
    const { toolbox, executed } = echoToolbox();
    const { emit, events } = createEventRecorder();
    const result = await oneTurn({ id: 'agent_a', model, system: 'You are A.', toolbox, emit });
    expect(result.reply).toEqual({ role: 'assistant', content: 'Here is the schedule. [FIN]' });
    expect(executed).toEqual(['/workspace/shared/0']);
    expect(result.activity).toMatchObject({ modelCalls: 2, refusedToolCalls: 0 });
    expect(result.activity?.toolCalls).toHaveLength(1);
    expect(mock.calls[0]?.tools?.map((tool) => tool.name)).toEqual(['write']);
    expect(mock.calls[1]?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(result.state.thread.at(-1)).toEqual({ role: 'assistant', content: 'Here is the schedule. [FIN]' });
    expect(result.state.lastInputTokens).toBe(100);
    expect(events.map((event) => event.type)).toEqual(['tool-call', 'tool-result']);
  });

  it('keeps the last non-empty text when the final call says nothing', async () => {
    const { model } = bound([{ ...toolCalls('write'), text: 'Draft written.' }, '']);
    const result = await oneTurn({ id: 'agent_a', model, system: 's', toolbox: echoToolbox().toolbox });
    expect(result.reply.content).toBe('Draft written.');
  });

  it('refuses tool calls beyond the per-turn limit and continues the loop', async () => {
    const { model, mock } = bound([toolCalls('write', 'write', 'write'), toolCalls('write'), 'done']);
    const { toolbox, executed } = echoToolbox();
    const { emit, events } = createEventRecorder();
    const result = await oneTurn({ id: 'agent_a', model, system: 's', toolbox, emit, limits: { maxToolCalls: 2 } });
    expect(executed).toEqual(['/workspace/shared/0', '/workspace/shared/1']);
    expect(result.activity).toMatchObject({ modelCalls: 3, refusedToolCalls: 2 });
    expect(events.filter((event) => event.type === 'tool-refuse')).toHaveLength(2);
    const refusals = mock.calls[2]?.messages.filter((message) => message.role === 'tool' && message.isError === true);
    expect(refusals?.map((message) => message.content)).toEqual([toolLimitMessage(2), toolLimitMessage(2)]);
    expect(result.reply.content).toBe('done');
  });

  it('throws TurnLimitError when the turn needs one model call more than allowed', async () => {
    const { model, mock } = bound(() => toolCalls('write'));
    const { toolbox } = echoToolbox();
    const failure = await oneTurn({ id: 'agent_a', model, system: 's', toolbox, limits: { maxModelCalls: 3 } }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ParticipantTurnError);
    const { cause, activity } = ParticipantTurnError.unwrap(failure);
    expect(cause).toBeInstanceOf(TurnLimitError);
    expect(mock.calls).toHaveLength(3);
    expect(activity?.modelCalls).toBe(3);
    expect(activity?.toolCalls).toHaveLength(3);
  });

  it('keeps <thinking> and <reasoning> blocks from partners too, as judges always did', async () => {
    const { model } = bound(['<thinking>their ids are private</thinking>Slots: Tue. <reasoning>ok</reasoning>[FIN]']);
    const result = await oneTurn({ id: 'agent_a', model, system: 's' });
    expect(result.reply).toEqual({ role: 'assistant', content: 'Slots: Tue. [FIN]' });
  });

  it('throws EmptyReplyError for a turn that is only reasoning', async () => {
    const { model } = bound(['<think>nothing to share</think>']);
    const failure = await oneTurn({ id: 'agent_b', model, system: 's' }).catch((error: unknown) => error);
    expect(ParticipantTurnError.unwrap(failure).cause).toBeInstanceOf(EmptyReplyError);
  });

  it('passes a provider error through, with the partial activity', async () => {
    const { model } = bound([
      toolCalls('write'),
      new ProviderError('upstream 500', { kind: 'transient', status: 500 }),
    ]);
    const failure = await oneTurn({ id: 'agent_a', model, system: 's', toolbox: echoToolbox().toolbox }).catch(
      (error: unknown) => error,
    );
    const { cause, activity } = ParticipantTurnError.unwrap(failure);
    expect(cause).toBeInstanceOf(ProviderError);
    expect(activity).toMatchObject({ modelCalls: 1 });
    expect(activity?.toolCalls).toHaveLength(1);
  });

  it('retries a failing tool execution up to toolRetries times', async () => {
    const flaky = echoToolbox(2);
    const ok = await oneTurn({
      id: 'agent_a',
      model: bound([toolCalls('write'), 'ok']).model,
      system: 's',
      toolbox: flaky.toolbox,
      limits: { toolRetries: 2 },
    });
    expect(ok.activity?.toolCalls[0]?.attempts).toBe(3);
    const broken = echoToolbox(3);
    const failure = await oneTurn({
      id: 'agent_a',
      model: bound([toolCalls('write'), 'ok']).model,
      system: 's',
      toolbox: broken.toolbox,
      limits: { toolRetries: 2 },
    }).catch((error: unknown) => error);
    expect((ParticipantTurnError.unwrap(failure).cause as Error).message).toBe('tool server crashed');
  });

  it('answers tool calls with an error result when no tools are offered', async () => {
    const { model, mock } = bound([toolCalls('write'), 'fine']);
    const result = await oneTurn({ id: 'agent_a', model, system: 's' });
    expect(result.activity).toMatchObject({ refusedToolCalls: 0, toolCalls: [] });
    expect(mock.calls[0]?.tools).toBeUndefined();
    expect(mock.calls[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });
});

describe('a tool call past its time budget (in-process tools)', () => {
  it('is stopped, the agent sees a tool error naming the budget, and the turn goes on', async () => {
    let stopped = false;
    const stall: Tool = {
      name: 'stall',
      description: 'Never finishes on its own.',
      inputSchema: z.object({}),
      kind: 'read',
      execute: ({ context }) =>
        new Promise((resolve) => {
          context.signal?.addEventListener('abort', () => {
            stopped = true;
            resolve({ content: 'too late' });
          });
        }),
    };
    const quick: Tool = {
      name: 'quick',
      description: 'Answers at once.',
      inputSchema: z.object({}),
      kind: 'read',
      execute: async () => ({ content: 'quick ok' }),
    };
    const connection = await serveToolsInProcess({ tools: [stall, quick], context: { participantId: 'agent_a' } });
    const toolbox = new McpToolSource({ client: connection.client, classify: () => 'read', timeoutMs: 50 });
    const call = (name: string, id: string) => ({ id, name, input: {} });
    const { model, mock } = bound([
      {
        text: '',
        toolCalls: [call('stall', 'c1')],
        finishReason: 'tool-calls',
        usage: { inputTokens: 1, outputTokens: 1 },
        warnings: [],
      },
      {
        text: '',
        toolCalls: [call('quick', 'c2')],
        finishReason: 'tool-calls',
        usage: { inputTokens: 1, outputTokens: 1 },
        warnings: [],
      },
      'Done anyway. [FIN]',
    ]);
    try {
      const result = await oneTurn({ id: 'agent_a', model, system: 's', toolbox });
      expect(result.reply.content).toBe('Done anyway. [FIN]');
      expect(stopped).toBe(true);
      const seen = mock.calls[1]?.messages.filter((message) => message.role === 'tool');
      expect(seen?.map((message) => [message.content, message.isError])).toEqual([
        ['Tool stall did not finish within its time budget of 50 ms and was stopped', true],
      ]);
      const after = mock.calls[2]?.messages.filter((message) => message.role === 'tool').at(-1);
      expect(after?.content).toBe('quick ok');
      expect(result.activity).toMatchObject({ modelCalls: 3, refusedToolCalls: 0 });
    } finally {
      await toolbox.close();
      await connection.close();
    }
  });
});
