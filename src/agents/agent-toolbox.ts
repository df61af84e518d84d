import type { EmitEvent, ToolDescriptor } from '../spec/chat-model.js';
import type { ToolCallRecord } from '../spec/participant.js';
import type { ToolKind } from '../spec/tool.js';

/**
 * The tools a participant may call, as agents need them. `tools/`' `ToolSource` satisfies it
 * structurally (agents and tools are sibling layers and do not import each other).
 * `callTool` answers model mistakes with `isError: true` and throws only when the tool
 * machinery itself fails.
 */
export type AgentToolbox = {
  listTools(): Promise<ToolDescriptor[]>;
  callTool(options: {
    name: string;
    input: unknown;
    signal?: AbortSignal;
  }): Promise<{ content: string; isError: boolean; kind: ToolKind }>;
};

/**
 * Executes one tool call with retries and records it. A thrown failure (the tool machinery,
 * not the model's mistake) is retried up to `retries` times; the last failure is rethrown and
 * ends the turn. An abort is never retried. Emits `tool-call` before and `tool-result` after.
 */
export async function runToolCall({
  toolbox,
  call,
  participantId,
  turn,
  retries,
  emit,
  signal,
}: {
  toolbox: AgentToolbox;
  call: { id: string; name: string; input: unknown };
  participantId: string;
  turn: number;
  retries: number;
  emit?: EmitEvent;
  signal?: AbortSignal;
}): Promise<ToolCallRecord> {
  emit?.({ type: 'tool-call', participantId, turn, toolCallId: call.id, name: call.name, input: call.input });
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const scoped = scopedSignal(signal);
    try {
      const output = await toolbox.callTool({
        name: call.name,
        input: call.input,
        ...(scoped === undefined ? {} : { signal: scoped.signal }),
      });
      const record: ToolCallRecord = {
        id: call.id,
        name: call.name,
        input: call.input,
        resultText: output.content,
        isError: output.isError,
        kind: output.kind,
        egress: output.kind === 'egress' && !output.isError,
        attempts,
      };
      emit?.({
        type: 'tool-result',
        participantId,
        turn,
        toolCallId: call.id,
        name: call.name,
        content: output.content,
        isError: output.isError,
        kind: output.kind,
        egress: record.egress,
        attempts,
      });
      return record;
    } catch (error) {
      if (signal?.aborted === true || attempts > retries) throw error;
    } finally {
      scoped?.dispose();
    }
  }
}

/**
 * A signal that follows `parent` for one call only. Tool clients may leave an abort listener on
 * the signal they are given (the MCP SDK client does), so the long-lived run signal is never
 * handed to them: the per-call signal is dropped after the call and the one listener it put on
 * the parent is removed.
 */
function scopedSignal(parent: AbortSignal | undefined): { signal: AbortSignal; dispose(): void } | undefined {
  if (parent === undefined) return undefined;
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, dispose: () => parent.removeEventListener('abort', forward) };
}
