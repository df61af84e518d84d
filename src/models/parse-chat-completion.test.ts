import { describe, expect, it } from 'vitest';
import { ChatCompletionShapeError, parseChatCompletion } from './parse-chat-completion.js';

const parse = (json: unknown) => parseChatCompletion({ json, metadataKey: 'vllm', generateId: () => 'generated' });
const answer = (message: object, extra: object = {}) => ({ choices: [{ message, finish_reason: 'stop' }], ...extra });

function shapeError(json: unknown): ChatCompletionShapeError {
  try {
    parse(json);
  } catch (error) {
    if (error instanceof ChatCompletionShapeError) return error;
    throw error;
  }
  throw new Error('expected a ChatCompletionShapeError');
}

describe('parseChatCompletion', () => {
  it('maps the first choice, its tool calls, the usage and the prediction details', () => {
    const result = parseChatCompletion({
      json: {
        id: 'c',
        created: 1,
        model: 'm',
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'Calling.',
              reasoning_content: 'not read',
              tool_calls: [
                { id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":[1]}' } },
                { function: { name: 'g', arguments: ' ' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
          { message: { content: 'second choice, ignored' } },
        ],
        usage: {
          prompt_tokens: 7,
          completion_tokens: 9,
          completion_tokens_details: { accepted_prediction_tokens: 1, rejected_prediction_tokens: 2 },
        },
      },
      metadataKey: 'ollama',
      warnings: ['w'],
      generateId: () => 'made-up',
    });
    expect(result).toEqual({
      text: 'Calling.',
      toolCalls: [
        { id: 't1', name: 'f', input: { a: [1] } },
        { id: 'made-up', name: 'g', input: {} },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 7, outputTokens: 9, reasoningTokens: 0 },
      warnings: ['w'],
      providerMetadata: { ollama: { acceptedPredictionTokens: 1, rejectedPredictionTokens: 2 } },
    });
  });

  it('maps finish reasons as the AI SDK does', () => {
    const reasons = ['stop', 'length', 'content_filter', 'function_call', 'tool_calls', null, 'abort'];
    expect(reasons.map((reason) => parse({ choices: [{ message: {}, finish_reason: reason }] }).finishReason)).toEqual([
      'stop',
      'length',
      'content-filter',
      'tool-calls',
      'tool-calls',
      'other',
      'other',
    ]);
  });

  it('appends a refusal to the text and reports it as content-filter', () => {
    expect(parse(answer({ content: 'A', refusal: 'No.' }))).toMatchObject({
      text: 'ANo.',
      finishReason: 'content-filter',
    });
    expect(parse(answer({ content: 'A', refusal: false }))).toMatchObject({ text: 'A', finishReason: 'stop' });
  });

  it('reports null token counts without a usage block', () => {
    expect(parse(answer({ content: 'x' })).usage).toEqual({ inputTokens: null, outputTokens: null });
  });

  it('names the field that has the wrong shape', () => {
    expect(shapeError([]).message).toBe('body: expected a JSON object');
    expect(shapeError({ choices: {} }).message).toBe('choices: expected an array');
    expect(shapeError({ choices: [{}] }).message).toBe('choices[0].message: expected an object');
    expect(shapeError(answer({ role: 'user' })).message).toBe('choices[0].message.role: expected "assistant"');
    expect(shapeError({ choices: [{ message: {} }, { message: { content: 1 } }] }).message).toBe(
      'choices[1].message.content: expected a string or an array of parts',
    );
    expect(shapeError(answer({ tool_calls: [{ function: { name: 'f', arguments: {} } }] })).message).toBe(
      'choices[0].message.tool_calls[0].function.arguments: expected a string',
    );
    expect(shapeError(answer({}, { usage: { completion_tokens_details: { reasoning_tokens: '1' } } })).message).toBe(
      'usage.completion_tokens_details.reasoning_tokens: expected a number',
    );
    expect(shapeError(answer({}, { id: 5 })).message).toBe('id: expected a string');
    expect(shapeError({ choices: [] })).toMatchObject({
      kind: 'no-choices',
      message: 'Response did not contain any choices.',
    });
  });
});
