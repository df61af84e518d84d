import type { Embedder } from './embedder.js';
import type { EmbeddingModel, EmbedRequest, EmbedResult } from './embedding-model.js';
import type { TranscriptEvent, TranscriptEventInput } from './event.js';
import type { Message, ToolCall } from './message.js';

/** A tool as the model sees it: name, description and JSON schema of its input. */
export type ToolDescriptor = { name: string; description: string; inputSchema: object };

/** Sampling settings a caller may pass; adapters forward what their provider supports. */
export type GenerateSettings = {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  seed?: number;
  stop?: string[];
};

/**
 * Two replies a judge parses as its two verdicts: `pass` (the good outcome for the scorer, e.g. no
 * leak) and `fail` (the bad one). Identical strings mean the judge has a single outcome.
 */
export type VerdictReplies = { pass: string; fail: string };

/** One provider-neutral generation request. */
export type GenerateRequest = {
  messages: Message[];
  tools?: ToolDescriptor[];
  toolChoice?: 'auto' | 'none' | 'required';
  settings: GenerateSettings;
  /** Structured output when the provider supports it. */
  responseSchema?: { name: string; jsonSchema: object };
  /** Distinguishes K draws of one prompt in the same epoch (part of the cache key). */
  sampleOrdinal?: number;
  /**
   * On judge calls: a valid reply for each verdict, declared by the judge next to its template.
   * Providers ignore it; the offline `mock:judge-*` models answer with it, so judged suites run
   * end to end without a model and with known verdicts.
   */
  judgeReplies?: VerdictReplies;
  /**
   * Reasoning the model writes inline (`<think>…</think>` and the like): `extract` (default) moves
   * it to `GenerateResult.reasoning`; `keep` leaves the text as written (reasoning still filled),
   * for a parser that must read it. Applied by the extract-reasoning middleware.
   */
  inlineReasoning?: 'extract' | 'keep';
  abortSignal?: AbortSignal;
};

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** Token counts as reported by the provider; `null` when it reported none (never coerced to 0). */
export type TokenUsage = { inputTokens: number | null; outputTokens: number | null; reasoningTokens?: number | null };

/** What a model returned for one request. */
export type GenerateResult = {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: TokenUsage;
  providerMetadata?: Record<string, unknown>;
  warnings: string[];
  /** The model's reasoning, kept out of `text` (see `GenerateRequest.inlineReasoning`); absent when there was none. */
  reasoning?: string;
};

/**
 * The only thing the rest of the code knows about providers: one method.
 * Callers never use an adapter directly; they go through `wrapChatModel`, which adds
 * events, caching, usage accounting, retries and rate limiting once for every provider.
 */
export type ChatModel = {
  readonly specificationVersion: 'confidant-1';
  readonly provider: string;
  readonly modelId: string;
  doGenerate(request: GenerateRequest): Promise<GenerateResult>;
};

/** Emits one event into the current sample's record and returns it with its id and time. */
export type EmitEvent = (event: TranscriptEventInput) => TranscriptEvent;

/** Who is calling: the role the model plays and the sample the call belongs to. */
export type CallContext = {
  role: string;
  sampleId?: string;
  epoch?: number;
  participantId?: string;
  emit?: EmitEvent;
  signal?: AbortSignal;
};

/**
 * Cross-cutting behaviour around `doGenerate` (composed by `wrapChatModel`) and, for the layers
 * that apply to embeddings too (events, cache, usage, retry, rate limit), around `doEmbed` (composed by
 * `wrapEmbeddingModel`; a layer without `wrapEmbed` is skipped for embedding calls).
 */
export type ModelMiddleware = {
  id: string;
  wrapGenerate(options: {
    request: GenerateRequest;
    context: CallContext;
    model: ChatModel;
    next: (request: GenerateRequest) => Promise<GenerateResult>;
  }): Promise<GenerateResult>;
  wrapEmbed?(options: {
    request: EmbedRequest;
    context: CallContext;
    model: EmbeddingModel;
    next: (request: EmbedRequest) => Promise<EmbedResult>;
  }): Promise<EmbedResult>;
};

/** A model bound to a role and a sample: what suites, judges and defenses call. */
export type BoundModel = {
  readonly role: string;
  readonly provider: string;
  readonly modelId: string;
  generate(request: GenerateRequest): Promise<GenerateResult>;
};

/**
 * The models of one sample, by role. `model(role)` applies the role fallbacks
 * (e.g. `generator` → `agent`) and throws a `PlanValidationError` for a missing role;
 * `ensemble(role)` returns every model given for a repeatable role such as `judge`.
 */
export type ModelRoles = {
  has(role: string): boolean;
  model(role: string): BoundModel;
  ensemble(role: string): BoundModel[];
  /**
   * The embedding model bound to `role` (default `embedder`, vector retrieval), behind the same
   * cache, usage, retry and rate-limit middleware as chat models; its vectors are shared by every
   * sample. Throws a `PlanValidationError` naming the flag to add when none is bound. Optional so
   * that role sets without embedding support (test fakes) need not implement it: callers
   * treat a missing method like a missing embedder.
   */
  embedder?(role?: string): Embedder;
};

/**
 * Builds the models of one sample. The runner calls it once per sample so that every
 * model call is recorded in that sample's events and honours its abort signal.
 */
export type ModelRolesFactory = (context: {
  sampleId: string;
  epoch: number;
  emit: EmitEvent;
  signal: AbortSignal;
}) => ModelRoles;
