import { type ZodType, z } from 'zod';
import { parseStructuredReply as parseStructured } from '../prompts/index.js';
import type { BoundModel } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';

/**
 * A parsed, schema-valid reply, or why none of the tries parsed. `raw` is the last reply text,
 * `calls` counts the model calls made (1 + parse retries used).
 */
export type StructuredReply<T> =
  | { ok: true; value: T; raw: string; calls: number }
  | { ok: false; problem: string; raw: string; calls: number };

const jsonSchemas = new WeakMap<ZodType, object>();

/** The JSON schema sent as `responseSchema` (computed once per zod schema). */
export function responseJsonSchema(schema: ZodType): object {
  let jsonSchema = jsonSchemas.get(schema);
  if (jsonSchema === undefined) {
    jsonSchema = z.toJSONSchema(schema);
    jsonSchemas.set(schema, jsonSchema);
  }
  return jsonSchema;
}

/**
 * Parses a reply into `schema` (reasoning is already out, by the model middleware): the first JSON object taken (fenced or
 * not, by the one structured-reply parser of `prompts/`), then validated. Says why when it does not parse.
 */
export function parseStructuredReply<T>({
  text,
  schema,
}: {
  text: string;
  schema: ZodType<T>;
}): { ok: true; value: T } | { ok: false; problem: string } {
  const reply = parseStructured({ text, schema });
  if (reply.ok) return { ok: true, value: reply.value };
  if (reply.problem === 'no-json-object') return { ok: false, problem: 'the reply holds no JSON object' };
  return { ok: false, problem: `the JSON does not have the expected shape (${reply.issues.slice(0, 4).join('; ')})` };
}

/**
 * Asks a datagen model for one structured answer. The zod schema goes along as `responseSchema`
 * (structured output where the provider supports it) with `seed` in the settings. A reply that
 * does not parse is asked again with the same messages and the next `sampleOrdinal` (so a
 * response cache does not hand back the same reply), at most `maxParseRetries` times; then the
 * result says why. Garbage is never returned as a value. Provider errors and aborts propagate
 * unchanged.
 */
export async function requestStructuredReply<T>({
  model,
  messages,
  schema,
  schemaName,
  seed,
  ordinalBase,
  maxParseRetries,
  signal,
}: {
  model: BoundModel;
  messages: Message[];
  schema: ZodType<T>;
  /** Name of the structured output (e.g. `pac_requirements`). */
  schemaName: string;
  seed: number;
  /** `sampleOrdinal` of the first try; retries count up from it. */
  ordinalBase: number;
  maxParseRetries: number;
  signal?: AbortSignal;
}): Promise<StructuredReply<T>> {
  const responseSchema = { name: schemaName, jsonSchema: responseJsonSchema(schema) };
  let problem = 'no reply';
  let raw = '';
  for (let retry = 0; retry <= maxParseRetries; retry += 1) {
    signal?.throwIfAborted();
    const reply = await model.generate({
      messages,
      settings: { seed },
      responseSchema,
      sampleOrdinal: ordinalBase + retry,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    raw = reply.text;
    const parsed = parseStructuredReply({ text: reply.text, schema });
    if (parsed.ok) return { ok: true, value: parsed.value, raw, calls: retry + 1 };
    problem = parsed.problem;
  }
  return {
    ok: false,
    problem: `no parseable '${schemaName}' reply in ${maxParseRetries + 1} tries: ${problem}; the reply began ${JSON.stringify(raw.slice(0, 120))}`,
    raw,
    calls: maxParseRetries + 1,
  };
}
