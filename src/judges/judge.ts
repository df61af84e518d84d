import type { ZodType } from 'zod';
import { PromptTemplateError } from '../prompts/prompt-template-error.js';
import type { GenerateSettings, VerdictReplies } from '../spec/chat-model.js';
import type { Verdict } from '../spec/score.js';
import type { JudgeTemplate } from './judge-template.js';

/**
 * What a judge concludes from one parsed answer. `pass` is the good outcome for the scorer
 * (documented per judge). `value` must be a finite number for `pass`/`fail`; it is forced to
 * `null` for `not-applicable`/`error`. A `pass`/`fail` without a number is recorded as `error`.
 */
export type JudgeOutcome = {
  verdict: Verdict;
  value: number | null;
  label?: string;
  explanation?: string;
};

/**
 * A judgment as made and recorded (one judge call, an ensemble, a `toVerdict` checked): its
 * outcome, the parsed reply when there is one, and why the verdict is `error`. `value` is null
 * unless the verdict is `pass` or `fail`.
 */
export type JudgedOutcome<T = never> = JudgeOutcome & {
  /** The parsed reply, when it parsed (an ensemble: when exactly one model judged). */
  parsed?: T;
  /** Why the verdict is `error`: a provider fault, a reply that never parsed, a bad `toVerdict` result, a tie. */
  error?: string;
};

type JudgeDefinitionBase<T> = {
  template: JudgeTemplate;
  /** Maps a parsed answer to a verdict; a throw is recorded as an `error` verdict. */
  toVerdict(parsed: T): JudgeOutcome;
  /** Extra sampling settings (e.g. `maxOutputTokens`); temperature is always 0 for judges. */
  settings?: Omit<GenerateSettings, 'temperature'>;
  /**
   * A reply in this judge's protocol for each verdict (`pass`: the good outcome; identical
   * replies for a judge with one outcome). They document the protocol, travel with every judge
   * request (`GenerateRequest.judgeReplies`) and are what the offline `mock:judge-leak`,
   * `mock:judge-safe` and `mock:judge-alternate` models answer. `exampleReplyProblems` checks them.
   */
  exampleReplies?: VerdictReplies;
  /**
   * Reasoning the judge writes inline (`<think>…</think>`): taken out of the reply before parsing
   * (`extract`, the default, by the model layer's `extractReasoning` rule) or parsed with the rest
   * (`keep`), as PrivacyLens' upstream parse does. The judge-call event's `raw` is always the
   * reply as written.
   */
  inlineReasoning?: 'extract' | 'keep';
  /**
   * Parse retries after the first call when a reply does not parse (default
   * `DEFAULT_MAX_PARSE_RETRIES`); a caller's `maxParseRetries` wins. For a judge reproducing an
   * upstream scorer's own retry loop (PAC-Bench's grounding judge tries 10 times).
   */
  maxParseRetries?: number;
  /**
   * What a reply that still does not parse after the retries means. Absent (the default): an
   * `error` verdict, never a pass. Only for a judge reproducing an upstream scorer that falls
   * back silently (`--fidelity upstream`, docs/fidelity.md); the outcome's explanation is
   * recorded with the parse failure appended, so the fallback stays visible.
   */
  unparsedOutcome?: JudgeOutcome;
};

/** A judge whose template uses `protocol: json`; the first JSON object in the reply must satisfy `schema`. */
export type JsonJudgeDefinition<T> = JudgeDefinitionBase<T> & {
  schema: ZodType<T>;
  parseAnswer?: undefined;
  /**
   * How the JSON value is read from the reply before `schema` checks it; default: the first JSON
   * object in the reply, fenced or not. A reader that reproduces another parser (an upstream
   * scorer's, `--fidelity upstream`) returns whatever that parser would see, e.g. `null` for a
   * reply it cannot read, and lets the schema decide what that means.
   */
  readReply?: (text: string) => unknown;
  /**
   * Also send the schema as the request's `responseSchema` (named after the template's `output`),
   * for providers with structured output. Off by default: strict provider modes reject some zod
   * shapes (optional fields), and the reply is validated either way.
   */
  structuredOutput?: boolean;
};

/** A judge whose template uses `protocol: answer-line`; `parseAnswer` returns `null` when the reply does not parse. */
export type AnswerLineJudgeDefinition<T> = JudgeDefinitionBase<T> & {
  parseAnswer: (text: string) => T | null;
  schema?: undefined;
  structuredOutput?: undefined;
};

/**
 * A judge: a versioned template, how to parse its reply (a zod schema for `json`, a parser for
 * `answer-line`, e.g. `answerLineParser(template)`), and how to turn the parsed reply into a verdict.
 */
export type JudgeDefinition<T> = JsonJudgeDefinition<T> | AnswerLineJudgeDefinition<T>;

/**
 * Checks that a judge definition fits its template (schema for `json`, parser for
 * `answer-line`) and returns it unchanged. Throws `PromptTemplateError` otherwise.
 * `runJudge` performs the same check, so using `defineJudge` only moves the failure to load time.
 */
export function defineJudge<T>(definition: JudgeDefinition<T>): JudgeDefinition<T> {
  assertJudgeDefinition(definition);
  return definition;
}

/** Throws `PromptTemplateError` when the definition's parser kind does not match its template's protocol. */
export function assertJudgeDefinition<T>(definition: JudgeDefinition<T>): void {
  const { template } = definition;
  const name = `${template.id}@${template.version}`;
  if (template.protocol === 'json' && definition.schema === undefined) {
    throw new PromptTemplateError(`judge ${name} uses protocol 'json'; give its definition a zod 'schema'`);
  }
  if (template.protocol === 'answer-line' && definition.parseAnswer === undefined) {
    throw new PromptTemplateError(
      `judge ${name} uses protocol 'answer-line'; give its definition 'parseAnswer' (e.g. answerLineParser(template))`,
    );
  }
  if (definition.schema !== undefined && definition.parseAnswer !== undefined) {
    throw new PromptTemplateError(`judge ${name}: give either 'schema' or 'parseAnswer', not both`);
  }
}
