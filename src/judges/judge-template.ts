import { z } from 'zod';
import { loadPromptTemplate, type PromptTemplate, parsePromptTemplate, quoteAll } from '../prompts/prompt-template.js';
import { PromptTemplateError } from '../prompts/prompt-template-error.js';
import type { JudgeInfo } from '../spec/judge-info.js';

/**
 * How a judge answers: `json` (one JSON object validated by a zod schema) or `answer-line`
 * (free reasoning, then a line starting with a marker such as `Answer:` followed by a label).
 */
export type JudgeProtocol = 'json' | 'answer-line';

/**
 * A parsed, versioned judge prompt. Templates are Markdown files named `<id>.v<version>.md`
 * whose body uses `{{slot}}` placeholders for exactly the slots listed in `inputs`.
 */
export type JudgeTemplate = {
  readonly id: string;
  readonly version: number;
  readonly protocol: JudgeProtocol;
  /** Name of the output schema (json) or answer format (answer-line); documentation and structured-output name. */
  readonly output: string;
  /** Slot names, in declaration order; the body uses each one at least once and no others. */
  readonly inputs: readonly string[];
  /** answer-line only: the line marker the answer follows (default `Answer:`), matched case-insensitively. */
  readonly answerPattern?: string;
  /** answer-line only: the allowed answers (e.g. `Yes`, `No`); absent means any non-empty answer. */
  readonly labels?: readonly string[];
  readonly description?: string;
  /** The prompt text after the front matter, trimmed, before substitution. */
  readonly body: string;
  /** SHA-256 (hex) of the whole file text as given, front matter included; goes into the run header. */
  readonly sha256: string;
  /** Where the text came from (a path, or any label for inline text); used in error messages. */
  readonly source: string;
  /**
   * Substitutes every `{{slot}}` in one pass (values are never re-scanned for placeholders).
   * Throws `PromptTemplateError` if a declared slot is missing or an undeclared one is given.
   */
  render(slots: Readonly<Record<string, string>>): string;
};

const metaSchema = z
  .object({
    protocol: z.enum(['json', 'answer-line']),
    output: z.string().min(1),
    answerPattern: z.string().min(1).optional(),
    // YAML reads `[0, 1, 2, 3]` as numbers; labels are the answer's text.
    labels: z
      .array(z.union([z.string().min(1), z.number().transform(String)]))
      .min(1)
      .optional(),
  })
  .strict();

/**
 * Parses a judge template from its text with the prompt-template loader (`prompts/`): the judge
 * keys (`protocol`, `output`, `answerPattern`, `labels`) validated, `inputs` required and checked
 * both ways against the body. `source` ending in `.md` must be `<id>.v<version>.md`. Throws
 * `PromptTemplateError` with the fix for any problem.
 */
export function parseJudgeTemplate({ text, source }: { text: string; source: string }): JudgeTemplate {
  return toJudgeTemplate(parsePromptTemplate({ text, source, schema: metaSchema }));
}

function toJudgeTemplate(parsed: PromptTemplate<z.infer<typeof metaSchema>>): JudgeTemplate {
  const { id, version, meta, source, body } = parsed;
  if (parsed.inputs === undefined) {
    throw new PromptTemplateError(`${source}: invalid front matter: 'inputs': a judge template lists its slots`);
  }
  if (meta.protocol === 'json' && (meta.answerPattern !== undefined || meta.labels !== undefined)) {
    throw new PromptTemplateError(
      `${source}: 'answerPattern' and 'labels' apply only to protocol 'answer-line'; remove them or change the protocol`,
    );
  }
  const inputs = parsed.inputs;
  const template: JudgeTemplate = {
    id,
    version,
    protocol: meta.protocol,
    output: meta.output,
    inputs,
    ...(meta.answerPattern === undefined ? {} : { answerPattern: meta.answerPattern }),
    ...(meta.labels === undefined ? {} : { labels: Object.freeze([...meta.labels]) }),
    ...(parsed.description === undefined ? {} : { description: parsed.description }),
    body,
    sha256: parsed.sha256,
    source,
    render(slots) {
      const given = Object.keys(slots);
      const missing = inputs.filter((name) => !Object.hasOwn(slots, name));
      const extra = given.filter((name) => !inputs.includes(name));
      if (missing.length > 0 || extra.length > 0) {
        const parts = [
          missing.length > 0 ? `missing slot(s) ${quoteAll(missing)}` : '',
          extra.length > 0 ? `unexpected slot(s) ${quoteAll(extra)}` : '',
        ].filter((part) => part !== '');
        throw new PromptTemplateError(
          `judge template ${id}@${version} (${source}): ${parts.join(' and ')}; it takes exactly ${quoteAll(inputs)}`,
        );
      }
      for (const name of given) {
        if (typeof slots[name] !== 'string') {
          throw new PromptTemplateError(`judge template ${id}@${version}: slot '${name}' must be a string`);
        }
      }
      return parsed.fill(body, slots);
    },
  };
  return Object.freeze(template);
}

/**
 * Reads and parses a template file synchronously, so suites can load their templates at
 * module level and report `judges()` (which is synchronous) without a pending promise.
 */
export function loadJudgeTemplate({ path }: { path: string }): JudgeTemplate {
  return toJudgeTemplate(loadPromptTemplate({ path, schema: metaSchema }));
}

/** The id, version and hash of a template, as stored in the run header. */
export function judgeInfo(template: JudgeTemplate): JudgeInfo {
  return { id: template.id, version: template.version, templateSha256: template.sha256 };
}

/** `<id>@<version>`: how judge-call events and default scorer names refer to a template. */
export function judgeName(template: Pick<JudgeTemplate, 'id' | 'version'>): string {
  return `${template.id}@${template.version}`;
}
