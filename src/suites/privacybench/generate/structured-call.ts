import { type ZodType, z } from 'zod';
import { type JudgeTemplate, visibleAnswer } from '../../../judges/index.js';
import { parseStructuredReply } from '../../../prompts/index.js';
import type { BoundModel } from '../../../spec/chat-model.js';
import { GenerationError } from './generation-error.js';

/** A parsed, schema-valid datagen reply. */
export type StructuredCallResult<T> = {
  value: T;
  /** The reply text it was parsed from. */
  raw: string;
  /** Model calls made (1 + parse retries used). */
  calls: number;
};

const jsonSchemas = new WeakMap<ZodType, object>();

function jsonSchemaOf(schema: ZodType): object {
  let jsonSchema = jsonSchemas.get(schema);
  if (jsonSchema === undefined) {
    jsonSchema = z.toJSONSchema(schema);
    jsonSchemas.set(schema, jsonSchema);
  }
  return jsonSchema;
}

/**
 * Asks the `datagen` model for one structured answer and validates it.
 *
 * Renders `template` with the `task` JSON and the `feedback` text, sends it as one user message
 * with the zod schema as `responseSchema` (structured output where the provider supports it) and
 * the seed in the settings, then parses the reply: reasoning blocks removed, the first JSON object
 * (fenced or not, as judges read it), validated by `schema`. A reply that does not parse is asked
 * again with the same prompt and the next `sampleOrdinal` (so the response cache does not return
 * the same reply), at most `maxParseRetries` times; after that a {@link GenerationError} names the
 * unit and the last problem. Garbage is never accepted. Provider faults propagate unchanged.
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
  const prompt = template.render({ task: JSON.stringify(task, null, 2), feedback });
  const responseSchema = { name: template.output, jsonSchema: jsonSchemaOf(schema) };
  let problem = 'no reply';
  let raw = '';
  for (let retry = 0; retry <= maxParseRetries; retry += 1) {
    signal?.throwIfAborted();
    const reply = await model.generate({
      messages: [{ role: 'user', content: prompt }],
      settings: { seed },
      responseSchema,
      sampleOrdinal: ordinalBase + retry,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    raw = reply.text;
    const parsed = parseStructured({ text: reply.text, schema });
    if (parsed.ok) return { value: parsed.value, raw, calls: retry + 1 };
    problem = parsed.problem;
  }
  throw new GenerationError(
    `datagen never returned a valid '${template.output}' for unit '${unit}' after ${maxParseRetries + 1} tries: ${problem}; ` +
      `the reply began: ${JSON.stringify(raw.slice(0, 160))}. Use a model with JSON output (--model datagen=…) or raise --max-parse-retries`,
    { unit },
  );
}

/** Parses a reply into `schema`, or says why it does not parse. */
export function parseStructured<T>({
  text,
  schema,
}: {
  text: string;
  schema: ZodType<T>;
}): { ok: true; value: T } | { ok: false; problem: string } {
  const reply = parseStructuredReply({ text: visibleAnswer(text), schema });
  if (reply.ok) return { ok: true, value: reply.value };
  if (reply.problem === 'no-json-object') return { ok: false, problem: 'no JSON object in the reply' };
  return { ok: false, problem: `the JSON does not match the expected shape (${reply.issues.slice(0, 5).join('; ')})` };
}
