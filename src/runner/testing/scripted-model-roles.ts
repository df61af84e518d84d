import { extractReasoning } from '../../models/middleware/extract-reasoning-middleware.js';
import type { BoundModel, GenerateRequest, ModelRoles, ModelRolesFactory } from '../../spec/chat-model.js';
import { PlanValidationError, RunInterruptedError } from '../../spec/errors.js';

/** A scripted answer: plain text, or text with the usage the fake provider reports. */
export type ScriptedReply =
  | string
  | {
      text: string;
      inputTokens?: number | null;
      outputTokens?: number | null;
      costUsd?: number | null;
      cached?: boolean;
    };

/** One call as the script sees it; `callIndex` counts calls across all samples, from 0. */
export type ScriptedCall = {
  role: string;
  sampleId: string;
  epoch: number;
  request: GenerateRequest;
  callIndex: number;
};

/**
 * A test-only `ModelRolesFactory` that answers from a function and records one `model-call`
 * event per call, like the real model wrapper does, so the runner's usage accounting and
 * error handling can be tested without the model stack (reasoning is extracted as its
 * outermost layer does). Unless the reply says otherwise, a call
 * reports 10 input tokens, 5 output tokens and costs 0.001 USD. A thrown error is recorded
 * on the event (`response: null`) and rethrown; an aborted signal throws `RunInterruptedError`.
 */
export function scriptedModelRoles({
  respond,
  roles = ['agent'],
}: {
  respond: (call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>;
  roles?: string[];
}): { factory: ModelRolesFactory; calls: ScriptedCall[] } {
  const calls: ScriptedCall[] = [];
  const factory: ModelRolesFactory = ({ sampleId, epoch, emit, signal }) => {
    const bind = (role: string): BoundModel => ({
      role,
      provider: 'mock',
      modelId: 'scripted',
      async generate(request) {
        if (signal.aborted) throw new RunInterruptedError();
        const call: ScriptedCall = { role, sampleId, epoch, request, callIndex: calls.length };
        calls.push(call);
        const base = {
          type: 'model-call' as const,
          role,
          provider: 'mock',
          modelId: 'scripted',
          request: { messages: request.messages, settings: { ...request.settings } },
          attempts: 1,
          durationMs: 0,
        };
        let reply: ScriptedReply;
        try {
          reply = await respond(call);
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          emit({
            ...base,
            response: null,
            usage: { inputTokens: null, outputTokens: null },
            costUsd: 0,
            cached: false,
            error: { name: failure.name, message: failure.message },
          });
          throw error;
        }
        const full = typeof reply === 'string' ? { text: reply } : reply;
        const usage = {
          inputTokens: full.inputTokens === undefined ? 10 : full.inputTokens,
          outputTokens: full.outputTokens === undefined ? 5 : full.outputTokens,
        };
        emit({
          ...base,
          response: { text: full.text, toolCalls: [], finishReason: 'stop' },
          usage,
          costUsd: full.costUsd === undefined ? 0.001 : full.costUsd,
          cached: full.cached ?? false,
        });
        const result = { text: full.text, toolCalls: [], finishReason: 'stop' as const, usage, warnings: [] };
        // As the real stack's outermost layer does: reasoning out of the text, the event keeps it.
        if (request.inlineReasoning === 'keep') return result;
        const { text, reasoning } = extractReasoning(full.text);
        return reasoning === undefined ? result : { ...result, text, reasoning };
      },
    });
    const models: ModelRoles = {
      has: (role) => roles.includes(role),
      model(role) {
        if (!roles.includes(role)) throw new PlanValidationError(`no model for role '${role}'`);
        return bind(role);
      },
      ensemble: (role) => (roles.includes(role) ? [bind(role)] : []),
    };
    return models;
  };
  return { factory, calls };
}
