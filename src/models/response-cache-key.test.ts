import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../spec/chat-model.js';
import { redactEndpoint } from './parse-model-spec.js';
import { canonicalJson, embeddingCacheKey, responseCacheKey } from './response-cache-key.js';

/** The first recipe's serialiser (a sorting `JSON.stringify` replacer): keys must not drift from it. */
function replacerCanonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key: string, member: unknown): unknown => {
      if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
      const record = member as Record<string, unknown>;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(record).sort()) sorted[key] = record[key];
      return sorted;
    }) ?? 'null'
  );
}

/** The first recipe's chat key, as it was written: every existing cache entry was stored under it. */
function firstRecipeKey(input: Parameters<typeof responseCacheKey>[0]): string {
  const { request } = input;
  const material = {
    format: 1,
    provider: input.provider,
    modelId: input.modelId,
    endpointSet: input.endpointSet.map(redactEndpoint).sort(),
    messages: request.messages,
    tools: request.tools ?? null,
    toolChoice: request.toolChoice ?? null,
    settings: request.settings,
    responseSchema: request.responseSchema ?? null,
    sampleOrdinal: request.sampleOrdinal ?? null,
    ...(request.judgeReplies === undefined ? {} : { judgeReplies: request.judgeReplies }),
    epoch: input.epoch ?? null,
    namespace: input.namespace,
  };
  return createHash('sha256').update(replacerCanonicalJson(material)).digest('hex');
}

const request: GenerateRequest = { messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 0, seed: 1 } };
const base = { provider: 'vllm', modelId: 'm', endpointSet: ['http://a/v1'], request, epoch: 1, namespace: '' };

/** Any JSON-ish value, with the oddities a replacer sees: undefined, NaN, -0, index-like and `__proto__` keys, dates. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '2', '01', '-1', '4294967295', '__proto__', 'toJSON')),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

const anyMessage = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user'), content: fc.string() }),
  fc.record({ role: fc.constant('user'), content: fc.string(), name: fc.string() }),
  fc.record({ content: fc.string(), role: fc.constant('assistant') }),
  fc.record(
    {
      role: fc.constant('assistant'),
      content: fc.string(),
      toolCalls: fc.array(fc.record({ id: fc.string(), name: fc.string(), input: anyValue }), { maxLength: 2 }),
      reasoning: fc.string(),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record({
    role: fc.constant('tool'),
    toolCallId: fc.string(),
    toolName: fc.string(),
    content: fc.string(),
    isError: fc.boolean(),
  }),
  // Shapes the type forbids but a caller may build: an extra key, an undefined member.
  fc.record({ role: fc.constant('user'), content: fc.string(), extra: anyValue }),
  fc.record({ role: fc.constant('user'), content: fc.constant(undefined) }),
);

const anyRequest = fc.record(
  {
    messages: fc.array(anyMessage, { maxLength: 4 }),
    settings: fc.dictionary(fc.string(), anyValue, { maxKeys: 4 }),
    tools: fc.array(fc.record({ name: fc.string(), description: fc.string(), inputSchema: anyValue })),
    toolChoice: fc.constantFrom('auto', 'none', 'required'),
    responseSchema: fc.record({ name: fc.string(), jsonSchema: fc.object() }),
    sampleOrdinal: fc.integer(),
    judgeReplies: fc.dictionary(fc.constantFrom('pass', 'fail', 'error'), fc.string()),
  },
  { requiredKeys: ['messages', 'settings'] },
) as unknown as fc.Arbitrary<GenerateRequest>;

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('writes exactly what the sorting JSON.stringify replacer wrote, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(canonicalJson(value)).toBe(replacerCanonicalJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('follows JSON on its edge cases: index keys first, toJSON, non-finite numbers, functions', () => {
    const odd = { b: 1, 10: 'ten', 2: 'two', a: [undefined, () => 1, Number.NaN], when: new Date(0), f: () => 1 };
    expect(canonicalJson(odd)).toBe(replacerCanonicalJson(odd));
    expect(canonicalJson(odd)).toBe(
      '{"2":"two","10":"ten","a":[null,null,null],"b":1,"when":"1970-01-01T00:00:00.000Z"}',
    );
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('responseCacheKey', () => {
  it('keeps the keys existing caches were written with (format 1)', () => {
    const full: GenerateRequest = {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi "there"\n' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', input: { path: '/a', n: 2 } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'x', isError: false },
      ],
      settings: { temperature: 0, seed: 1, maxOutputTokens: 64 },
      sampleOrdinal: 2,
    };
    const endpointSet = ['http://b/v1', 'http://u:secret@a/v1?key=1'];
    // Hashes computed by the first recipe's code before the serialiser was rewritten.
    expect(responseCacheKey({ ...base, endpointSet, request: full })).toBe(
      '9cb72ea36dfcd052cc1355f8f7a281593b032abc3bfb29a06a30e8bf7618ebc7',
    );
    const plain = { messages: [{ role: 'user' as const, content: 'hello' }], settings: {} };
    expect(
      responseCacheKey({
        provider: 'openai-compatible',
        modelId: 'bench',
        endpointSet: ['http://127.0.0.1:1/v1'],
        request: plain,
        epoch: undefined,
        namespace: 'judge',
      }),
    ).toBe('6048f05a6b81e2e7793dd4b2faa04a850e89b9e225ea42826913a28331f10f97');
    expect(
      embeddingCacheKey({
        provider: 'ollama',
        modelId: 'e',
        embedderId: 'e@768',
        endpointSet: ['http://a/v1'],
        texts: ['one', 'two'],
        namespace: '',
      }),
    ).toBe('d0ce561a85f6b492d8df931064388bec3e0c0465ba1602b9eb80eca6f999a8f6');
  });

  it('equals the first recipe for any request', () => {
    fc.assert(
      fc.property(
        anyRequest,
        fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
        fc.string(),
        (generated, epoch, namespace) => {
          const input = { ...base, request: generated, epoch, namespace };
          expect(responseCacheKey(input)).toBe(firstRecipeKey(input));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is a stable hex SHA-256: equal requests built in any key order give one key', () => {
    const key = responseCacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered = { settings: { seed: 1, temperature: 0 }, messages: [{ content: 'hi', role: 'user' as const }] };
    expect(responseCacheKey({ ...base, request: reordered })).toBe(key);
    expect(responseCacheKey({ ...base, request: structuredClone(request) })).toBe(key);
  });

  it('ignores the abort signal, the reasoning option, endpoint order and endpoint credentials', () => {
    const key = responseCacheKey({ ...base, endpointSet: ['http://b/v1', 'http://a/v1'] });
    expect(responseCacheKey({ ...base, endpointSet: ['http://a/v1', 'http://u:secret@b/v1?key=1'] })).toBe(key);
    expect(responseCacheKey({ ...base, request: { ...request, abortSignal: new AbortController().signal } })).toBe(
      responseCacheKey(base),
    );
    expect(responseCacheKey({ ...base, request: { ...request, inlineReasoning: 'keep' } })).toBe(
      responseCacheKey(base),
    );
  });

  it('changes with every identifying field', () => {
    const key = responseCacheKey(base);
    const variants = [
      { ...base, provider: 'ollama' },
      { ...base, modelId: 'n' },
      { ...base, endpointSet: ['http://c/v1'] },
      { ...base, epoch: 2 },
      { ...base, epoch: undefined },
      { ...base, namespace: 'judge' },
      { ...base, request: { ...request, sampleOrdinal: 1 } },
      { ...base, request: { ...request, settings: { temperature: 0.5, seed: 1 } } },
      { ...base, request: { ...request, settings: { temperature: 0, seed: 1, topP: 1 } } },
      { ...base, request: { ...request, toolChoice: 'none' as const } },
      { ...base, request: { ...request, tools: [{ name: 't', description: 'd', inputSchema: {} }] } },
      { ...base, request: { ...request, responseSchema: { name: 's', jsonSchema: {} } } },
      { ...base, request: { ...request, judgeReplies: { pass: 'no', fail: 'yes', error: '?' } } },
      { ...base, request: { ...request, messages: [{ role: 'user' as const, content: 'hi!' }] } },
      { ...base, request: { ...request, messages: [{ role: 'system' as const, content: 'hi' }] } },
      { ...base, request: { ...request, messages: [{ role: 'user' as const, content: 'hi', name: 'a' }] } },
      { ...base, request: { ...request, messages: [...request.messages, ...request.messages] } },
    ];
    const keys = new Set(variants.map(responseCacheKey));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(key)).toBe(false);
  });

  it('gives different keys to different requests (no two distinct serialisations collide)', () => {
    fc.assert(
      fc.property(anyRequest, anyRequest, (a, b) => {
        const same = replacerCanonicalJson(a) === replacerCanonicalJson(b);
        expect(responseCacheKey({ ...base, request: a }) === responseCacheKey({ ...base, request: b })).toBe(same);
      }),
      { numRuns: 300 },
    );
  });
});
