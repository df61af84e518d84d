import { createEventRecorder } from '../../../runner/create-event-recorder.js';
import {
  type ScriptedCall,
  type ScriptedReply,
  scriptedModelRoles,
} from '../../../runner/testing/scripted-model-roles.js';
import type { EmitEvent, ModelRoles } from '../../../spec/chat-model.js';
import type { TranscriptEvent } from '../../../spec/event.js';

/** Scripted models bound to `roles` for one sample, with the sample's event log. */
export function scriptedSample({
  respond,
  roles = ['agent', 'prober', 'judge'],
}: {
  respond: (call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>;
  roles?: string[];
}): { models: ModelRoles; emit: EmitEvent; events: TranscriptEvent[]; calls: ScriptedCall[] } {
  const { emit, events } = createEventRecorder({ now: () => new Date('2025-01-01T00:00:00Z') });
  const { factory, calls } = scriptedModelRoles({ respond, roles });
  const models = factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal });
  return { models, emit, events, calls };
}

/** The whole prompt of a scripted call as one string. */
export function promptOf(call: ScriptedCall): string {
  return call.request.messages.map((message) => message.content).join('\n');
}
