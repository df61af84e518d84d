import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { type AgentToolbox, runToolCall } from './agent-toolbox.js';

function flakyToolbox(failures: number): { toolbox: AgentToolbox; calls: () => number } {
  let calls = 0;
  return {
    toolbox: {
      listTools: async () => [],
      callTool: async ({ input }) => {
        calls += 1;
        if (calls <= failures) throw new Error(`server crashed (${calls})`);
        return { content: `wrote ${JSON.stringify(input)}`, isError: false, kind: 'egress' };
      },
    },
    calls: () => calls,
  };
}

const call = { id: 'c1', name: 'filesystem_write_file', input: { path: '/workspace/shared/a.md' } };

describe('runToolCall', () => {
  it('retries failing executions and records the attempts and events', async () => {
    const { emit, events } = createEventRecorder();
    const { toolbox, calls } = flakyToolbox(2);
    const record = await runToolCall({
      toolbox,
      call,
      participantId: 'agent_a',
      turn: 3,
      retries: 2,
      emit,
    });
    expect(calls()).toBe(3);
    expect(record).toEqual({
      id: 'c1',
      name: 'filesystem_write_file',
      input: call.input,
      resultText: 'wrote {"path":"/workspace/shared/a.md"}',
      isError: false,
      kind: 'egress',
      egress: true,
      attempts: 3,
    });
    expect(events.map((event) => event.type)).toEqual(['tool-call', 'tool-result']);
    expect(events[1]).toMatchObject({ participantId: 'agent_a', turn: 3, attempts: 3, egress: true });
  });

  it('rethrows after the last retry', async () => {
    const { toolbox, calls } = flakyToolbox(3);
    await expect(runToolCall({ toolbox, call, participantId: 'agent_a', turn: 1, retries: 2 })).rejects.toThrow(
      'server crashed (3)',
    );
    expect(calls()).toBe(3);
  });

  it('marks a failed write as not egress', async () => {
    const toolbox: AgentToolbox = {
      listTools: async () => [],
      callTool: async () => ({ content: 'Access denied', isError: true, kind: 'egress' }),
    };
    const record = await runToolCall({ toolbox, call, participantId: 'agent_a', turn: 1, retries: 0 });
    expect(record).toMatchObject({ isError: true, egress: false, attempts: 1 });
  });
});

describe('runToolCall and abort signals', () => {
  it('leaves no listener on the caller’s signal, whatever the toolbox does with its own', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const toolbox: AgentToolbox = {
      listTools: async () => [],
      callTool: async ({ signal }) => {
        // Like a client that never removes its listener.
        signal?.addEventListener('abort', () => {});
        if (signal !== undefined) seen.push(signal);
        return { content: 'ok', isError: false, kind: 'read' };
      },
    };
    for (let index = 0; index < 12; index += 1) {
      await runToolCall({ toolbox, call, participantId: 'a', turn: 1, retries: 0, signal: controller.signal });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(seen).toHaveLength(12);
    expect(seen[0]).not.toBe(controller.signal);
  });
});
