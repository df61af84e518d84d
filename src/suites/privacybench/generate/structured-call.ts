import type { ZodType } from 'zod';
import { GenerationError, requestStructuredReply } from '../../../generation/index.js';
import type { JudgeTemplate } from '../../../judges/index.js';
import type { BoundModel } from '../../../spec/chat-model.js';

/** A parsed, schema-valid datagen reply. */
export type StructuredCallResult<T> = {
  value: T;
  /** The reply text it was parsed from. */
  raw: string;
  /** Model calls made (1 + parse retries used). */
  calls: number;
};

/**
 * Asks the `datagen` model for one structured answer of a community unit: renders `template` with
 * the `task` JSON and the `feedback` text as one user message and asks through
 * `requestStructuredReply` (schema as `responseSchema`, seed, parse retries with the next
 * `sampleOrdinal`). A reply that never parses is a {@link GenerationError} naming the unit and the
 * last problem: a community is never built on garbage. Provider faults propagate unchanged.
 */
export async function callStructured<T>({
  model,
  unit,
  template,
  task,
  feedback,
  schema,
  seed,
  ordinalBase,
  maxParseRetries,
  signal,
}: {
  model: BoundModel;
  /** The unit being generated, for messages. */
  unit: string;
  template: JudgeTemplate;
  task: unknown;
  /** Problems of a rejected earlier answer, or '' for a first attempt. */
  feedback: string;
  schema: ZodType<T>;
  seed: number;
  /** The first `sampleOrdinal` to use; attempts of one unit use disjoint ranges. */
  ordinalBase: number;
  maxParseRetries: number;
  signal?: AbortSignal;
}): Promise<StructuredCallResult<T>> {
  const reply = await requestStructuredReply({
    model,
    messages: [{ role: 'user', content: template.render({ task: JSON.stringify(task, null, 2), feedback }) }],
    schema,
    schemaName: template.output,
    seed,
    ordinalBase,
    maxParseRetries,
    ...(signal === undefined ? {} : { signal }),
  });
  if (reply.ok) return { value: reply.value, raw: reply.raw, calls: reply.calls };
  throw new GenerationError(
    `datagen gave no valid answer for unit '${unit}': ${reply.problem}. ` +
      'Use a model with JSON output (--model datagen=…) or raise --max-parse-retries',
    { unit },
  );
}
