import type { IncomingHttpHeaders } from 'node:http';
import type { ChatModel, GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import { toChatCompletionsBody } from './chat-completions-body.js';
import {
  type HttpAnswer,
  type NodeHttpTransport,
  RequestTimeoutError,
  sharedNodeHttpTransport,
} from './node-http-transport.js';
import { ChatCompletionShapeError, parseChatCompletion } from './parse-chat-completion.js';
import {
  apiCallProviderError,
  malformedResponseError,
  type ProviderErrorSource,
  requestTimeoutError,
} from './provider-error.js';

/** Options of `leanChatModel`. */
export type LeanChatModelOptions = {
  /** Our provider id (`vllm`, `ollama`, `openai-compatible`); also the `providerMetadata` key. */
  provider: string;
  modelId: string;
  /** The server's base URL, e.g. `http://127.0.0.1:8000/v1` (`/chat/completions` is appended). */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; scrubbed from every error message. */
  apiKey?: string;
  /** The server enforces a JSON schema (`response_format: json_schema`); otherwise JSON mode only. */
  structuredOutputs: boolean;
  /** Client-side timeout per request; a timeout is a `transient` ProviderError. */
  timeoutMs?: number;
  /** The connections to use (default: the process-wide keep-alive transport). */
  transport?: NodeHttpTransport;
  /** Ids for tool calls the server sent without one (default: 16 random letters and digits). */
  generateId?: () => string;
};

type ErrorBody = { error: { message: string } };

/** The OpenAI error body the AI SDK's openai-compatible model reads its message from. */
function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const error: unknown = Reflect.get(value, 'error');
  if (typeof error !== 'object' || error === null || typeof Reflect.get(error, 'message') !== 'string') return false;
  const type: unknown = Reflect.get(error, 'type');
  const code: unknown = Reflect.get(error, 'code');
  return (
    (type === undefined || type === null || typeof type === 'string') &&
    (code === undefined || code === null || typeof code === 'string' || typeof code === 'number')
  );
}

/** The body as text, a UTF-8 byte-order mark dropped (as `TextDecoder`, which the AI SDK uses, does). */
function bodyText(body: Buffer): string {
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return (bom ? body.subarray(3) : body).toString('utf8');
}

/** Node's headers as the AI SDK hands them to error mapping: one string per name. */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * The error of a non-2xx answer, with the message the AI SDK's openai-compatible model would
 * give: the OpenAI error body's `error.message`, else the status text.
 */
function statusError(answer: HttpAnswer, source: ProviderErrorSource): Error {
  const text = bodyText(answer.body);
  let message = answer.statusText;
  if (text.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isErrorBody(parsed)) message = parsed.error.message;
    } catch {
      // Not JSON: the status text it is, as on the AI SDK path.
    }
  }
  return apiCallProviderError({
    ...source,
    status: answer.status,
    message,
    headers: flatHeaders(answer.headers),
    // Like the AI SDK's APICallError: the message as mapped, the body kept beside it.
    cause: Object.assign(new Error(message), { name: 'HttpStatusError', status: answer.status, responseBody: text }),
  });
}

/** A 2xx answer as our result, or the error the AI SDK path gives for the same bytes. */
function resultOf(
  answer: HttpAnswer,
  options: { source: ProviderErrorSource; warnings: string[]; generateId?: () => string },
): GenerateResult {
  const invalid = (cause: unknown) =>
    apiCallProviderError({
      ...options.source,
      status: answer.status,
      message: 'Invalid JSON response',
      headers: flatHeaders(answer.headers),
      cause,
    });
  let json: unknown;
  try {
    json = JSON.parse(bodyText(answer.body));
  } catch (error) {
    throw invalid(error);
  }
  try {
    return parseChatCompletion({
      json,
      metadataKey: options.source.provider,
      warnings: options.warnings,
      ...(options.generateId === undefined ? {} : { generateId: options.generateId }),
    });
  } catch (error) {
    if (error instanceof ChatCompletionShapeError && error.kind === 'no-choices') {
      throw malformedResponseError({ ...options.source, message: error.message, cause: error });
    }
    throw invalid(error);
  }
}

/**
 * The lean client for OpenAI-compatible servers (vLLM, Ollama, any `openai-compatible:`), where
 * client CPU per call matters: the request body is built as JSON (`toChatCompletionsBody`), sent
 * over pooled keep-alive `net`/`tls` connections (`NodeHttpTransport`) and the answer is
 * shape-checked by hand (`parseChatCompletion`), with no AI SDK and no WHATWG `Response` in
 * between. It sends what `@ai-sdk/openai-compatible` sends and answers what that model plus
 * `aiSdkChatModel` answer: the same result for the same bytes and the same `ProviderError`
 * (message, kind, status, retry hint) for every failure, built by the same helpers; an abort by
 * the caller's signal rethrows its reason. No retries here: the wrapper retries.
 */
export function leanChatModel(options: LeanChatModelOptions): ChatModel {
  const { provider, modelId, apiKey, structuredOutputs, timeoutMs } = options;
  const transport = options.transport ?? sharedNodeHttpTransport();
  // One trailing slash dropped, as the AI SDK does, so both paths post to the same URL.
  const url = new URL(`${options.baseURL.replace(/\/$/, '')}/chat/completions`);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined && apiKey !== '') headers.authorization = `Bearer ${apiKey}`;
  const source: ProviderErrorSource = { provider, modelId, secrets: apiKey === undefined ? [] : [apiKey] };
  return {
    specificationVersion: 'confidant-1',
    provider,
    modelId,
    async doGenerate(request: GenerateRequest): Promise<GenerateResult> {
      const signal = request.abortSignal;
      signal?.throwIfAborted();
      const { body, warnings } = toChatCompletionsBody({ request, modelId, structuredOutputs });
      let answer: HttpAnswer;
      try {
        answer = await transport.send({
          url,
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          ...(signal === undefined ? {} : { signal }),
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof RequestTimeoutError) {
          throw requestTimeoutError({ provider, modelId, timeoutMs: error.timeoutMs, cause: error });
        }
        const message = error instanceof Error ? error.message : String(error);
        throw apiCallProviderError({ ...source, message: `Cannot connect to API: ${message}`, cause: error });
      }
      if (answer.status < 200 || answer.status > 299) throw statusError(answer, source);
      return resultOf(answer, {
        source,
        warnings,
        ...(options.generateId === undefined ? {} : { generateId: options.generateId }),
      });
    },
  };
}
