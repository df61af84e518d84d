import type { ChatModel, GenerateRequest, GenerateResult, TokenUsage } from '../../spec/chat-model.js';

/** One scripted answer: a full result, plain text (a `stop` text result), or an error to throw. */
export type MockStep = GenerateResult | string | Error;

/**
 * How a `MockChatModel` answers: a function of the request and the 0-based call index
 * (it may throw to simulate faults), one answer for every call, or a list consumed one per
 * call (a further call fails with an error naming the exhausted script).
 */
export type MockScript =
  | ((request: GenerateRequest, callIndex: number) => MockStep | Promise<MockStep>)
  | MockStep
  | readonly MockStep[];

/** Token counts given to text answers: estimated from lengths (4 characters a token) or fixed. */
export type MockUsage = 'length' | { inputTokens: number; outputTokens: number };

/** Options of `MockChatModel`. */
export type MockChatModelOptions = {
  script: MockScript;
  provider?: string;
  modelId?: string;
  usage?: MockUsage;
};

/** Rough token estimate used by mocks: one token per 4 characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A `stop` result with the given text and usage. */
export function textResult(text: string, usage: TokenUsage = { inputTokens: 0, outputTokens: 0 }): GenerateResult {
  return { text, toolCalls: [], finishReason: 'stop', usage, warnings: [] };
}

function usageFor(mode: MockUsage, request: GenerateRequest, text: string): TokenUsage {
  if (mode !== 'length') return { inputTokens: mode.inputTokens, outputTokens: mode.outputTokens };
  const prompt = request.messages.reduce((sum, message) => sum + message.content.length, 0);
  return { inputTokens: Math.ceil(prompt / 4), outputTokens: estimateTokens(text) };
}

/**
 * A scripted `ChatModel` for tests and offline runs. Every request is recorded in `calls`
 * (in call order), so tests can assert exactly what a component sent.
 */
export class MockChatModel implements ChatModel {
  readonly specificationVersion = 'confidant-1';
  readonly provider: string;
  readonly modelId: string;
  /** Every request received, in order. */
  readonly calls: GenerateRequest[] = [];
  private readonly script: MockScript;
  private readonly usage: MockUsage;

  constructor(options: MockChatModelOptions) {
    this.script = options.script;
    this.provider = options.provider ?? 'mock';
    this.modelId = options.modelId ?? 'scripted';
    this.usage = options.usage ?? 'length';
  }

  async doGenerate(request: GenerateRequest): Promise<GenerateResult> {
    const callIndex = this.calls.length;
    this.calls.push(request);
    request.abortSignal?.throwIfAborted();
    const step = await this.stepFor(request, callIndex);
    if (step instanceof Error) throw step;
    if (typeof step === 'string') return textResult(step, usageFor(this.usage, request, step));
    return step;
  }

  private stepFor(request: GenerateRequest, callIndex: number): MockStep | Promise<MockStep> {
    const script = this.script;
    if (typeof script === 'function') return script(request, callIndex);
    if (isStepList(script)) {
      const step = script[callIndex];
      if (step === undefined) {
        throw new Error(
          `MockChatModel ${this.provider}:${this.modelId}: script exhausted after ${script.length} answers (call ${callIndex + 1})`,
        );
      }
      return step;
    }
    return script;
  }
}

function isStepList(script: MockScript): script is readonly MockStep[] {
  return Array.isArray(script);
}
