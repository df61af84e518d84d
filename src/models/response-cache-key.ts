import { hash } from 'node:crypto';
import type { GenerateRequest } from '../spec/chat-model.js';
import { redactEndpoint } from './parse-model-spec.js';

/**
 * Part of every key; bumped when the key recipe or the stored shape changes, so old entries are
 * never misread. The writers below produce exactly the text the first recipe (format 1) hashed.
 */
const CACHE_FORMAT = 1;

/** An array index key (`0` … `2^32 - 2`): such keys come first in an object, in numeric order. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * JSON with object keys sorted at every depth (undefined members dropped, as JSON does), so
 * equal values always serialise to the same string. Written directly rather than through a
 * `JSON.stringify` replacer that copies every object: the text is the same (`toJSON` applied,
 * non-finite numbers as `null`, array index keys first in numeric order as JavaScript orders
 * them, an own `__proto__` key dropped), in a fraction of the time.
 */
export function canonicalJson(value: unknown): string {
  return writeMember(value, '') ?? 'null';
}

/** One member as `JSON.stringify` sees it: `toJSON` first, then the value; `undefined` when omitted. */
function writeMember(value: unknown, key: string): string | undefined {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return writeValue(toJSON.call(value, key));
  }
  return writeValue(value);
}

function writeValue(value: unknown): string | undefined {
  const type = typeof value;
  if (type === 'string') return JSON.stringify(value);
  if (type === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (type === 'boolean') return value ? 'true' : 'false';
  if (type === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (type !== 'object') return undefined; // undefined, functions, symbols: omitted, or `null` in arrays (as JSON does)
  if (value === null) return 'null';
  return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
}

function writeArray(items: readonly unknown[]): string {
  let text = '[';
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0) text += ',';
    text += writeMember(items[index], String(index)) ?? 'null';
  }
  return `${text}]`;
}

function writeObject(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  // Index keys already lead, in numeric order; the sorted copy JSON would write keeps them there.
  let indexKeys = 0;
  while (indexKeys < keys.length && isArrayIndex(keys[indexKeys] as string)) indexKeys += 1;
  const named = keys.slice(indexKeys).sort();
  let text = '{';
  let first = true;
  for (const key of indexKeys === 0 ? named : [...keys.slice(0, indexKeys), ...named]) {
    if (key === '__proto__') continue;
    const member = writeMember(record[key], key);
    if (member === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${text}}`;
}

function isArrayIndex(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) < 4_294_967_295;
}

/** `{"a":…,"b":…}` from members already in key order, leaving out the omitted ones. */
function objectOf(members: ReadonlyArray<readonly [string, string | undefined]>): string {
  let text = '{';
  for (const [name, member] of members) {
    if (member === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}"${name}":${member}`;
  }
  return `${text}}`;
}

/**
 * A message, the bulk of every key: the common `{ role, content }` shape is written straight
 * out; any other shape goes through `canonicalJson`'s writer.
 */
function writeMessage(message: unknown, index: number): string {
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (typeof role === 'string' && typeof content === 'string' && !('toJSON' in message)) {
      const keys = Object.keys(message);
      const plain = keys.length === 2 && keys.includes('role') && keys.includes('content');
      if (plain) return `{"content":${JSON.stringify(content)},"role":${JSON.stringify(role)}}`;
    }
  }
  return writeMember(message, String(index)) ?? 'null';
}

function writeMessages(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return writeMember(messages, 'messages');
  let text = '[';
  for (let index = 0; index < messages.length; index += 1) {
    text += `${index > 0 ? ',' : ''}${writeMessage(messages[index], index)}`;
  }
  return `${text}]`;
}

/** The redacted, sorted endpoints of a set, as JSON; computed once per set (URL parsing is not free). */
const endpointJson = new WeakMap<readonly string[], string>();
function endpointSetJson(endpointSet: readonly string[]): string {
  let json = endpointJson.get(endpointSet);
  if (json === undefined) {
    json = canonicalJson(endpointSet.map(redactEndpoint).sort());
    endpointJson.set(endpointSet, json);
  }
  return json;
}

// The one-shot digest (no Hash object per key); the same hex as `createHash('sha256')`.
const sha256 = (text: string) => hash('sha256', text, 'hex');

/** What identifies a response. Never API keys, headers or tokens. */
export type CacheKeyInput = {
  provider: string;
  modelId: string;
  /** Base URLs of the model; they are redacted and sorted here (once per array). */
  endpointSet: readonly string[];
  request: GenerateRequest;
  epoch: number | undefined;
  namespace: string;
};

/**
 * SHA-256 (hex) of the canonical JSON of the cache-relevant parts of a call: provider, model,
 * endpoints, messages, tools, tool choice, settings, response schema, sample ordinal, the mock
 * judges' declared replies, epoch and namespace. The text is written field by field in key
 * order (no intermediate object), and equals `canonicalJson` of those fields, so keys of
 * existing caches stay valid.
 */
export function responseCacheKey(input: CacheKeyInput): string {
  const { request } = input;
  return sha256(
    objectOf([
      ['endpointSet', endpointSetJson(input.endpointSet)],
      ['epoch', writeMember(input.epoch ?? null, 'epoch')],
      ['format', String(CACHE_FORMAT)],
      // Only the mock judges read it, but a cached mock reply must follow the judge's declared ones.
      [
        'judgeReplies',
        request.judgeReplies === undefined ? undefined : writeMember(request.judgeReplies, 'judgeReplies'),
      ],
      ['messages', writeMessages(request.messages)],
      ['modelId', writeMember(input.modelId, 'modelId')],
      ['namespace', writeMember(input.namespace, 'namespace')],
      ['provider', writeMember(input.provider, 'provider')],
      ['responseSchema', writeMember(request.responseSchema ?? null, 'responseSchema')],
      ['sampleOrdinal', writeMember(request.sampleOrdinal ?? null, 'sampleOrdinal')],
      ['settings', writeMember(request.settings, 'settings')],
      ['toolChoice', writeMember(request.toolChoice ?? null, 'toolChoice')],
      ['tools', writeMember(request.tools ?? null, 'tools')],
    ]),
  );
}

/** What identifies an embedding call: the model, its vector space, its endpoints and the texts. */
export type EmbeddingCacheKeyInput = {
  provider: string;
  modelId: string;
  embedderId: string;
  endpointSet: readonly string[];
  texts: readonly string[];
  namespace: string;
};

/** SHA-256 (hex) of the canonical JSON of an embedding call (a `kind` keeps it apart from chat keys). */
export function embeddingCacheKey(input: EmbeddingCacheKeyInput): string {
  return sha256(
    objectOf([
      ['embedderId', writeMember(input.embedderId, 'embedderId')],
      ['endpointSet', endpointSetJson(input.endpointSet)],
      ['format', String(CACHE_FORMAT)],
      ['kind', '"embedding"'],
      ['modelId', writeMember(input.modelId, 'modelId')],
      ['namespace', writeMember(input.namespace, 'namespace')],
      ['provider', writeMember(input.provider, 'provider')],
      ['texts', writeMember(input.texts, 'texts')],
    ]),
  );
}
