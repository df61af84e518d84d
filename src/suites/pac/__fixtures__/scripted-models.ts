import { extractReasoningMiddleware } from '../../../models/middleware/extract-reasoning-middleware.js';
import { recordEventsMiddleware } from '../../../models/middleware/record-events-middleware.js';
import { createModelRolesFactory } from '../../../models/model-roles.js';
import { MockChatModel, type MockStep } from '../../../models/testing/mock-chat-model.js';
import { wrapChatModel } from '../../../models/wrap-chat-model.js';
import { createEventRecorder } from '../../../runner/create-event-recorder.js';
import { MODEL_ROLES } from '../../../runner/role-registry.js';
import type {
  BoundModel,
  EmitEvent,
  GenerateRequest,
  GenerateResult,
  ModelRolesFactory,
} from '../../../spec/chat-model.js';

/** A `tool-calls` result asking for these calls (ids `<prefix>-<n>`), with optional text. */
export function toolStep(
  calls: Array<{ name: string; input: unknown }>,
  { text = '', prefix = 'call' }: { text?: string; prefix?: string } = {},
): GenerateResult {
  return {
    text,
    toolCalls: calls.map((call, index) => ({ id: `${prefix}-${index}`, name: call.name, input: call.input })),
    finishReason: 'tool-calls',
    usage: { inputTokens: 50, outputTokens: 5 },
    warnings: [],
  };
}

/** A script step: a plain text reply. */
export const say = (text: string): MockStep => text;

/** A `write_file` call into the shared folder. */
export const writeShared = (path: string, content: string) => ({
  name: 'filesystem_write_file',
  input: { path: `/workspace/shared/${path}`, content },
});

/** A scripted model per role, each a list of steps (or a function), with `model-call` events. */
export function scriptedRoles(
  scripts: Record<string, readonly MockStep[] | ((request: GenerateRequest, index: number) => MockStep)>,
): { factory: ModelRolesFactory; mocks: Record<string, MockChatModel> } {
  const mocks: Record<string, MockChatModel> = {};
  const bindings: Record<string, ReturnType<typeof wrapChatModel>[]> = {};
  for (const [role, script] of Object.entries(scripts)) {
    const mock = new MockChatModel({
      script: typeof script === 'function' ? script : [...script],
      modelId: role,
      usage: { inputTokens: 50, outputTokens: 5 },
    });
    mocks[role] = mock;
    bindings[role] = [
      wrapChatModel({
        model: mock,
        middleware: [extractReasoningMiddleware(), recordEventsMiddleware({ now: () => 0 })],
      }),
    ];
  }
  return { factory: createModelRolesFactory({ roles: MODEL_ROLES, bindings }), mocks };
}

/** One bound model straight from a script; its events go to `emit` (default: a throwaway recorder). */
export function scriptedModel({
  role,
  script,
  emit,
}: {
  role: string;
  script: readonly MockStep[] | ((request: GenerateRequest, index: number) => MockStep);
  emit?: EmitEvent;
}): { model: BoundModel; mock: MockChatModel } {
  const { factory, mocks } = scriptedRoles({ [role]: script });
  const roles = factory({
    sampleId: 's',
    epoch: 1,
    emit: emit ?? createEventRecorder().emit,
    signal: new AbortController().signal,
  });
  return { model: roles.model(role), mock: mocks[role]! };
}
