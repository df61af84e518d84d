import type { LanguageModelV3 } from '@ai-sdk/provider';

type SdkGenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type SdkStreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
type SdkStreamPart = SdkStreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

/**
 * Replays a finished generation as an AI SDK V3 stream: `stream-start`, the response
 * metadata, each text part as one start/delta/end triple, tool calls as they are, then
 * `finish` with the usage and provider metadata. Used to guard `streamText`: the reply is
 * generated and reviewed in full before a single token is streamed.
 */
export function generationStream(result: SdkGenerateResult): SdkStreamResult {
  const parts: SdkStreamPart[] = [{ type: 'stream-start', warnings: result.warnings }];
  const response = result.response;
  if (response !== undefined) {
    parts.push({
      type: 'response-metadata',
      ...(response.id === undefined ? {} : { id: response.id }),
      ...(response.timestamp === undefined ? {} : { timestamp: response.timestamp }),
      ...(response.modelId === undefined ? {} : { modelId: response.modelId }),
    });
  }
  result.content.forEach((part, index) => {
    if (part.type === 'text') {
      if (part.text === '') return;
      const id = `text-${index}`;
      parts.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: part.text }, { type: 'text-end', id });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  parts.push({
    type: 'finish',
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata === undefined ? {} : { providerMetadata: result.providerMetadata }),
  });
  const stream = new ReadableStream<SdkStreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return {
    stream,
    ...(result.request === undefined ? {} : { request: result.request }),
    ...(response?.headers === undefined ? {} : { response: { headers: response.headers } }),
  };
}
