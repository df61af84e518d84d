import type { EmitEvent } from '../spec/chat-model.js';
import { type TranscriptEvent, transcriptEventSchema } from '../spec/event.js';

/** The events of one sample and the `emit` function that appends to them. */
export type EventRecorder = { emit: EmitEvent; events: TranscriptEvent[] };

/**
 * Creates the event log of one sample. Events get ids `e1`, `e2`, … in emission order and an
 * ISO time from `now`. Each event is validated as it is emitted, so a malformed event fails the
 * sample that produced it (status `error`) instead of making the run file unreadable.
 */
export function createEventRecorder({ now = () => new Date() }: { now?: () => Date } = {}): EventRecorder {
  const events: TranscriptEvent[] = [];
  const emit: EmitEvent = (input) => {
    const candidate = { ...input, id: `e${events.length + 1}`, time: now().toISOString() };
    const parsed = transcriptEventSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(
        `invalid '${String(input.type)}' event: ${issue?.message ?? 'invalid'}${issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''}`,
      );
    }
    events.push(parsed.data);
    return parsed.data;
  };
  return { emit, events };
}
