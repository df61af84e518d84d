import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import { aiSdkChatModel } from '../models/ai-sdk-chat-model.js';
import { parseVerdict } from '../orchestration/parse-verdict.js';
import { leafPaths, runRoleChain } from '../orchestration/role-chain.js';
import { parseTopology, type Topology } from '../orchestration/topology.js';
import type { BoundModel, ChatModel, EmitEvent, ModelRoles } from '../spec/chat-model.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent } from '../spec/event.js';
import { generationStream } from './generation-stream.js';
import { generationText, guardTaskPrompt } from './guard-task-prompt.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type SdkGenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type SdkUsage = SdkGenerateResult['usage'];

/** Options of `privacyGuard`. */
export type PrivacyGuardOptions = {
  /** The chain, starting with a single `G` (the wrapped model itself); default `G>V>R`. */
  chain?: string;
  /** Models for the review stages; each defaults to the wrapped model. Other roles use the wrapped model. */
  models?: { verifier?: LanguageModelV3; refiner?: LanguageModelV3 };
  /** The app's contextual-integrity norms: who may learn what. At least one. */
  norms: string | readonly string[];
  /**
   * Also put each stage's text into the provider metadata. Off by default: the draft and the
   * critique may quote exactly the information the guard removed from the reply.
   */
  recordStageText?: boolean;
};

/** The overall verdict of the verifier stages; `none` when the chain has no verifier. */
export type PrivacyGuardVerdict = 'approve' | 'request-changes' | 'unclear' | 'none';

/** What the guard did, recorded as `providerMetadata.confidant.privacyGuard`. */
export type PrivacyGuardReport = {
  chain: string;
  verdict: PrivacyGuardVerdict;
  /** `withheld` when the draft proposed tool calls and the verifiers did not all approve. */
  toolCalls: 'none' | 'kept' | 'withheld';
  stages: Array<{ role: string; label: string; characters: number; text?: string }>;
};

function checkedTopology(chain: string): Topology {
  const topology = parseTopology(chain);
  const [first, ...rest] = topology.stages;
  const generatorFirst = first?.members.length === 1 && first.members[0]?.role === 'generator';
  const generatorLater = rest.some((stage) => stage.members.some((member) => member.role === 'generator'));
  if (!generatorFirst || generatorLater || topology.stages.length < 2) {
    throw new PlanValidationError(
      `privacyGuard chain '${chain}' must start with a single G (the wrapped model's own reply), use G nowhere ` +
        'else, and have at least one stage after it, e.g. G>V>R',
    );
  }
  if (topology.stages.some((stage) => (stage.branching ?? 1) > 1)) {
    throw new PlanValidationError(`privacyGuard chain '${chain}' cannot branch: drop '*n'`);
  }
  return topology;
}

/** Sums one usage field over stages; undefined as soon as one stage did not report it (never guessed). */
function sumField(values: ReadonlyArray<number | undefined>): number | undefined {
  let total = 0;
  for (const value of values) {
    if (value === undefined) return undefined;
    total += value;
  }
  return total;
}

function sumUsage(usages: readonly SdkUsage[]): SdkUsage {
  const input = (key: keyof SdkUsage['inputTokens']) => sumField(usages.map((usage) => usage.inputTokens[key]));
  const output = (key: keyof SdkUsage['outputTokens']) => sumField(usages.map((usage) => usage.outputTokens[key]));
  return {
    inputTokens: {
      total: input('total'),
      noCache: input('noCache'),
      cacheRead: input('cacheRead'),
      cacheWrite: input('cacheWrite'),
    },
    outputTokens: { total: output('total'), text: output('text'), reasoning: output('reasoning') },
  };
}

function overallVerdict(texts: readonly string[]): PrivacyGuardVerdict {
  if (texts.length === 0) return 'none';
  const verdicts = texts.map(parseVerdict);
  if (verdicts.includes('request-changes')) return 'request-changes';
  if (verdicts.includes('unclear')) return 'unclear';
  return 'approve';
}

/** A `ChatModel` over a V3 model that keeps every raw result, for usage and finish reasons. */
function recordedChatModel(model: LanguageModelV3, results: SdkGenerateResult[]): ChatModel {
  const recording: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      const result = await model.doGenerate(options);
      results.push(result);
      return result;
    },
    doStream: (options) => model.doStream(options),
  };
  return aiSdkChatModel(recording);
}

async function guardedGenerate({
  options,
  topology,
  norms,
  doGenerate,
  params,
  model,
}: {
  options: PrivacyGuardOptions;
  topology: Topology;
  norms: readonly string[];
  doGenerate: () => PromiseLike<SdkGenerateResult>;
  params: CallOptions;
  model: LanguageModelV3;
}): Promise<SdkGenerateResult> {
  const generated = await doGenerate();
  const stageResults: SdkGenerateResult[] = [];
  const draft: ChatModel = {
    specificationVersion: 'confidant-1',
    provider: model.provider,
    modelId: model.modelId,
    doGenerate: async () => ({
      text: generationText(generated),
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: null, outputTokens: null },
      warnings: [],
    }),
  };
  const reviewers: Record<string, ChatModel> = {
    generator: draft,
    verifier: recordedChatModel(options.models?.verifier ?? model, stageResults),
    refiner: recordedChatModel(options.models?.refiner ?? model, stageResults),
  };
  const fallback = recordedChatModel(model, stageResults);
  const bind = (role: string): BoundModel => {
    const chat = reviewers[role] ?? fallback;
    return {
      role,
      provider: chat.provider,
      modelId: chat.modelId,
      generate: (request) =>
        chat.doGenerate({ ...request, ...(params.abortSignal ? { abortSignal: params.abortSignal } : {}) }),
    };
  };
  const models: ModelRoles = { has: () => true, model: bind, ensemble: (role) => [bind(role)] };
  const events: TranscriptEvent[] = [];
  const emit: EmitEvent = (event) => {
    const stored = { ...event, id: `guard-${events.length + 1}`, time: new Date().toISOString() } as TranscriptEvent;
    events.push(stored);
    return stored;
  };
  const tree = await runRoleChain({
    topology,
    prompt: guardTaskPrompt({ prompt: params.prompt, norms }),
    models,
    emit,
    settings: params.maxOutputTokens === undefined ? {} : { maxOutputTokens: params.maxOutputTokens },
    defenseId: 'privacy-guard',
  });
  const members = topology.stages.flatMap((stage) => stage.members);
  const path = leafPaths(tree)[0] ?? [];
  const finalText = path.at(-1)?.output ?? '';
  const verdict = overallVerdict(path.filter((node) => node.role === 'verifier').map((node) => node.output ?? ''));
  const proposedCalls = generated.content.filter((part) => part.type === 'tool-call');
  const toolCalls = proposedCalls.length === 0 ? 'none' : verdict === 'approve' ? 'kept' : 'withheld';
  const report: PrivacyGuardReport = {
    chain: topology.shape,
    verdict,
    toolCalls,
    stages: path.map((node, index) => ({
      role: String(node.role),
      label: members[index]?.label ?? String(node.role),
      characters: (node.output ?? '').length,
      ...(options.recordStageText ? { text: node.output ?? '' } : {}),
    })),
  };
  const lastStage = stageResults.at(-1);
  const previousConfidant = generated.providerMetadata?.confidant ?? {};
  return {
    content: [{ type: 'text', text: finalText }, ...(toolCalls === 'kept' ? proposedCalls : [])],
    finishReason: toolCalls === 'kept' || lastStage === undefined ? generated.finishReason : lastStage.finishReason,
    usage: sumUsage([generated.usage, ...stageResults.map((result) => result.usage)]),
    providerMetadata: {
      ...generated.providerMetadata,
      confidant: { ...previousConfidant, privacyGuard: report },
    },
    warnings: [...generated.warnings, ...stageResults.flatMap((result) => result.warnings)],
    ...(generated.request === undefined ? {} : { request: generated.request }),
    ...(generated.response === undefined ? {} : { response: generated.response }),
  };
}

/**
 * An AI SDK 6 middleware that puts a PrivAct role chain at the model boundary of an app.
 *
 * The wrapped model's own reply is the Generator's output. The later stages of `chain`
 * (default `G>V>R`: a Verifier, then a Refiner) then review it against the app's
 * contextual-integrity `norms` and the conversation, with the same stage prompts as the
 * `chain:<topology>` defense (`runRoleChain` through the `aiSdkChatModel` adapter). The
 * result's text is the final stage's text.
 *
 * - **Tool calls.** The Verifier sees the draft's tool calls (name and JSON input) next to its
 *   text. They are returned unchanged only when every Verifier's last line is
 *   `Verdict: APPROVE`; on `REQUEST CHANGES`, on an unreadable verdict, or in a chain without
 *   a Verifier they are withheld, and the reply is the Refiner's text alone (finish reason from
 *   the last stage). A flagged call is never executed, and nothing rewrites tool arguments.
 * - **Streaming.** `streamText` is guarded too: the reply is generated and reviewed in full,
 *   then streamed as one text delta (no token-by-token output).
 * - **Usage** is summed over the draft and every stage; a field one stage did not report is
 *   left undefined rather than guessed.
 * - **Metadata**: `providerMetadata.confidant.privacyGuard` holds a `PrivacyGuardReport`
 *   (chain, verdict, what happened to tool calls, stage roles and sizes; stage texts only with
 *   `recordStageText`). The draft's reasoning parts are dropped.
 * - Provider-specific call options (`providerOptions`, headers) go to the draft call only.
 *
 * Throws `PlanValidationError` at construction for a chain that does not start with a single
 * G, that branches, or for empty norms.
 *
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { openai } from '@ai-sdk/openai';
 * import { privacyGuard } from 'confidant-eval';
 *
 * const model = wrapLanguageModel({
 *   model: openai.chat('gpt-5.1'),
 *   middleware: privacyGuard({
 *     norms: ["Patients' diagnoses are shared only with their own care team."],
 *   }),
 * });
 * const { text, providerMetadata } = await generateText({ model, prompt: 'Email Bob about my week.' });
 * ```
 */
export function privacyGuard(options: PrivacyGuardOptions): LanguageModelMiddleware {
  const topology = checkedTopology(options.chain ?? 'G>V>R');
  const norms = (typeof options.norms === 'string' ? [options.norms] : [...options.norms])
    .map((norm) => norm.trim())
    .filter((norm) => norm !== '');
  if (norms.length === 0) {
    throw new PlanValidationError('privacyGuard needs at least one norm: who may learn what in your application');
  }
  return {
    specificationVersion: 'v3',
    wrapGenerate: ({ doGenerate, params, model }) =>
      guardedGenerate({ options, topology, norms, doGenerate, params, model }),
    wrapStream: async ({ doGenerate, params, model }) =>
      generationStream(await guardedGenerate({ options, topology, norms, doGenerate, params, model })),
  };
}
