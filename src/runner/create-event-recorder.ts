import type { EmitEvent } from '../spec/chat-model.js';
import { type TranscriptEvent, transcriptEventSchema } from '../spec/event.js';
import { createIsoClock } from './iso-clock.js';

/** The events of one sample and the `emit` function that appends to them. */
export type EventRecorder = { emit: EmitEvent; events: TranscriptEvent[] };

/** The inputs of `createEventRecorder`. */
export type EventRecorderOptions = {
  now?: () => Date;
  /**
   * The events' ISO time, read instead of `now` (the run spine shares one `createIsoClock` among
   * its samples, so events of the same millisecond share one string).
   */
  clock?: () => string;
  /**
   * Check every event against the run format as it is emitted (default true). The run spine
   * passes false on its hot path: its events are built by typed code, and checking each one with
   * zod cost a sixth of a call's CPU. `CONFIDANT_VALIDATE=1` (and the test setup) turns it on there.
   */
  validate?: boolean;
};

/**
 * Creates the event log of one sample. Events get ids `e1`, `e2`, … in emission order and an
 * ISO time from `clock` (default: `now`). With `validate` (the default) each event is checked as it is emitted, so a
 * malformed event fails the sample that produced it (status `error`) instead of making the run
 * file unreadable; the stored event is then zod's parsed copy. Without it the stored event is a
 * shallow copy of the input with its id and time.
 */
export function createEventRecorder({
  now,
  clock = createIsoClock(now),
  validate = true,
}: EventRecorderOptions = {}): EventRecorder {
  const events: TranscriptEvent[] = [];
  const emit: EmitEvent = (input) => {
    const candidate = { ...input, id: `e${events.length + 1}`, time: clock() } as TranscriptEvent;
    if (!validate) {
      events.push(candidate);
      return candidate;
    }
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
