import type { BoundModel, EmitEvent, GenerateSettings, ToolDescriptor } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';
import { emptyTurnActivity, type Participant, ParticipantTurnError, type TurnActivity } from '../spec/participant.js';
import { type AgentToolbox, runToolCall } from './agent-toolbox.js';
import { EmptyReplyError, TurnLimitError } from './turn-errors.js';

/** Per-turn limits of a {@link createToolCallingAgent} (pacbench.md §4 step 5). */
export type ToolCallingAgentLimits = {
  /** Model calls allowed in one turn; needing one more throws `TurnLimitError`. */
  maxModelCalls: number;
  /** Tool calls executed in one turn; further calls are refused and the loop continues. */
  maxToolCalls: number;
  /** Retries of a tool execution that throws (the machinery failed, not the model). */
  toolRetries: number;
};

/** The paper script's limits: 10 model calls, 5 tool calls, 2 retries. */
export const DEFAULT_AGENT_LIMITS: ToolCallingAgentLimits = { maxModelCalls: 10, maxToolCalls: 5, toolRetries: 2 };

/** The state of a tool-calling agent: its own persistent thread. */
export type ToolCallingAgentState = {
  /** System prompt, every message received, its tool calls and results, its own replies. */
  thread: Message[];
  /** Input tokens the provider reported for the latest call (null when it reported none). */
  lastInputTokens: number | null;
};

/**
 * Shortens a thread that grew too large (see `thread-summarizer.ts`). Returns the thread to
 * use from now on: the same array when nothing had to change.
 */
export type ThreadCompactor = (options: {
  thread: Message[];
  lastInputTokens: number | null;
  signal?: AbortSignal;
}) => Promise<Message[]>;

/** Options of {@link createToolCallingAgent}. */
export type ToolCallingAgentOptions = {
  id: string;
  model: BoundModel;
  /** The system prompt; the thread starts with it. */
  system: string;
  /** The tools offered every call; none when absent. */
  toolbox?: AgentToolbox;
  limits?: Partial<ToolCallingAgentLimits>;
  settings?: GenerateSettings;
  emit?: EmitEvent;
  /** Runs before every model call; e.g. summarisation above a token budget. */
  compactThread?: ThreadCompactor;
};

/** The tool result a refused call receives: the model should reply instead. */
export function toolLimitMessage(maxToolCalls: number): string {
  return (
    `Tool call refused: the limit of ${maxToolCalls} tool calls per turn has been reached. ` +
    'Write your reply message now; you can use tools again in your next turn.'
  );
}

/**
 * A ReAct-style participant over a model and a toolbox (architecture §4.7). Each turn appends
 * the inbox to the agent's thread and loops: call the model with the thread and the tools; if it
 * asked for tools, execute them (at most `maxToolCalls` per turn; further calls get a refusal
 * result and a `tool-refuse` event), append the results and call again; stop when a call asks
 * for no tool. The turn output is the last non-empty assistant text of the turn with
 * `<think>` blocks removed (what the thread keeps too).
 *
 * Errors end the turn: needing more than `maxModelCalls` calls is a `TurnLimitError`, a turn
 * with no visible text an `EmptyReplyError`, a provider failure or a tool failure left after
 * `toolRetries` retries propagates as is. Each is wrapped in a `ParticipantTurnError` carrying
 * what the turn did before failing.
 */
export function createToolCallingAgent(options: ToolCallingAgentOptions): Participant<ToolCallingAgentState> {
  const { id, model, system, toolbox, emit, compactThread } = options;
  const limits = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const settings = options.settings ?? {};
  let descriptors: Promise<ToolDescriptor[]> | undefined;

  const runTurn = async ({
    inbox,
    state,
    turn,
    signal,
    activity,
  }: {
    inbox: Message[];
    state: ToolCallingAgentState;
    turn: number;
    signal?: AbortSignal;
    activity: TurnActivity;
  }): Promise<{ text: string; state: ToolCallingAgentState }> => {
    descriptors ??= toolbox === undefined ? Promise.resolve([]) : toolbox.listTools();
    const tools = await descriptors;
    let thread = [...state.thread, ...inbox];
    let lastInputTokens = state.lastInputTokens;
    let lastText = '';
    let executed = 0;
    for (;;) {
      if (activity.modelCalls >= limits.maxModelCalls) {
        throw new TurnLimitError(
          `${id} needed more than ${limits.maxModelCalls} model calls in turn ${turn} (maxModelCallsPerTurn)`,
          { limit: limits.maxModelCalls },
        );
      }
      if (compactThread !== undefined) {
        thread = await compactThread({ thread, lastInputTokens, ...(signal === undefined ? {} : { signal }) });
      }
      const result = await model.generate({
        messages: [...thread],
        ...(tools.length === 0 ? {} : { tools, toolChoice: 'auto' as const }),
        settings,
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      activity.modelCalls += 1;
      lastInputTokens = result.usage.inputTokens;
      // Reasoning is already out of the text (the extract-reasoning middleware).
      const text = result.text.trim();
      if (text !== '') lastText = text;
      thread.push({
        role: 'assistant',
        content: text,
        ...(result.toolCalls.length === 0 ? {} : { toolCalls: result.toolCalls }),
      });
      if (result.toolCalls.length === 0) break;
      for (const call of result.toolCalls) {
        if (executed >= limits.maxToolCalls || toolbox === undefined) {
          const content =
            toolbox === undefined
              ? `Tool ${call.name} is not available: no tools are offered.`
              : toolLimitMessage(limits.maxToolCalls);
          activity.refusedToolCalls += toolbox === undefined ? 0 : 1;
          if (toolbox !== undefined) {
            emit?.({
              type: 'tool-refuse',
              participantId: id,
              turn,
              toolCallId: call.id,
              name: call.name,
              input: call.input,
              reason: `per-turn tool limit of ${limits.maxToolCalls} reached`,
            });
          }
          thread.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true });
          continue;
        }
        executed += 1;
        const record = await runToolCall({
          toolbox,
          call,
          participantId: id,
          turn,
          retries: limits.toolRetries,
          ...(emit === undefined ? {} : { emit }),
          ...(signal === undefined ? {} : { signal }),
        });
        activity.toolCalls.push(record);
        thread.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: record.resultText,
          ...(record.isError ? { isError: true } : {}),
        });
      }
    }
    if (lastText === '') {
      throw new EmptyReplyError(`${id} ended turn ${turn} without any visible text (after removing <think> blocks)`);
    }
    return { text: lastText, state: { thread, lastInputTokens } };
  };

  return {
    id,
    initialState: () => ({ thread: [{ role: 'system', content: system }], lastInputTokens: null }),
    async respond({ inbox, state, turn, signal }) {
      const activity = emptyTurnActivity();
      try {
        const done = await runTurn({ inbox, state, turn, activity, ...(signal === undefined ? {} : { signal }) });
        return { reply: { role: 'assistant', content: done.text }, state: done.state, activity };
      } catch (cause) {
        throw new ParticipantTurnError({ participantId: id, cause, activity });
      }
    },
  };
}
