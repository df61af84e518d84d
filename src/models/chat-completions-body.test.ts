import { describe, expect, it } from 'vitest';
import { SCHEMA_UNSUPPORTED_WARNING, toChatCompletionsBody } from './chat-completions-body.js';

describe('toChatCompletionsBody', () => {
  it('sends only the model and the messages when nothing else is set', () => {
    expect(
      toChatCompletionsBody({
        request: { messages: [{ role: 'user', content: 'hi' }], settings: {}, toolChoice: 'auto', sampleOrdinal: 2 },
        modelId: 'm',
        structuredOutputs: true,
      }),
    ).toEqual({ body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, warnings: [] });
  });

  it('maps settings, tools and an empty stop list', () => {
    const { body } = toChatCompletionsBody({
      request: {
        messages: [{ role: 'system', content: 's' }],
        tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' } }],
        toolChoice: 'required',
        settings: { temperature: 0, topP: 1, maxOutputTokens: 5, seed: 0, stop: [] },
      },
      modelId: 'm',
      structuredOutputs: false,
    });
    expect(body).toEqual({
      model: 'm',
      max_tokens: 5,
      temperature: 0,
      top_p: 1,
      seed: 0,
      messages: [{ role: 'system', content: 's' }],
      tools: [{ type: 'function', function: { name: 't', description: 'd', parameters: { type: 'object' } } }],
      tool_choice: 'required',
    });
  });

  it('sends assistant tool calls as JSON strings and each tool result as its own message', () => {
    const { body } = toChatCompletionsBody({
      request: {
        messages: [
          {
            role: 'assistant',
            content: '',
            reasoning: 'not sent',
            toolCalls: [
              { id: 'a', name: 'f', input: { x: 1 } },
              { id: 'b', name: 'f', input: '{"y":2}' },
              { id: 'c', name: 'f', input: 'plain words' },
            ],
          },
          { role: 'tool', toolCallId: 'a', toolName: 'f', content: 'one' },
          { role: 'tool', toolCallId: 'b', toolName: 'f', content: 'two', isError: true },
          { role: 'assistant', content: '' },
        ],
        settings: {},
      },
      modelId: 'm',
      structuredOutputs: false,
    });
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
          { id: 'b', type: 'function', function: { name: 'f', arguments: '{"y":2}' } },
          { id: 'c', type: 'function', function: { name: 'f', arguments: '"plain words"' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'tool', tool_call_id: 'b', content: 'two' },
      { role: 'assistant', content: '' },
    ]);
  });

  it('asks for a strict json_schema with structured outputs, else for json_object with a warning', () => {
    const request = {
      messages: [{ role: 'user' as const, content: 'x' }],
      settings: {},
      responseSchema: { name: 'out', jsonSchema: { type: 'object' } },
    };
    expect(toChatCompletionsBody({ request, modelId: 'm', structuredOutputs: true })).toEqual({
      body: {
        model: 'm',
        response_format: {
          type: 'json_schema',
          json_schema: { schema: { type: 'object' }, strict: true, name: 'out' },
        },
        messages: [{ role: 'user', content: 'x' }],
      },
      warnings: [],
    });
    expect(toChatCompletionsBody({ request, modelId: 'm', structuredOutputs: false })).toEqual({
      body: { model: 'm', response_format: { type: 'json_object' }, messages: [{ role: 'user', content: 'x' }] },
      warnings: [SCHEMA_UNSUPPORTED_WARNING],
    });
  });
});
