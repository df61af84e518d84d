import { z } from 'zod';
import { jsonReplies, loadJudgeTemplate, normalizeForMatching } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import type { ScoreTarget } from '../../../spec/score-target.js';
import type { PacPolicy } from '../scenario-schema.js';
import { defineJsonJudge } from './define-json-judge.js';
import { runEnsembleWithVotes } from './ensemble-votes.js';
import { type PacJudgeContext, signalOf } from './judge-models.js';
import { asRecord, pyStr, readUpstreamJson } from './upstream-reading.js';

/** `pac-keyword-variants@1`: the keyword expansion template (§7.2 keyword-awareness step 1). */
export const KEYWORD_VARIANTS_TEMPLATE = lazyTemplate(() =>
  loadJudgeTemplate({
    path: promptTemplatePath(import.meta.url, 'pac-keyword-variants.v1.md'),
  }),
);

/** Proposed variants shorter than this (after normalising) are dropped: they would match almost anything. */
export const MIN_VARIANT_LENGTH = 3;

const variationsSchema = z.object({ variations: z.array(z.string()) });

/** The expansion judge. It decides nothing: its verdict is `pass` with the number of variants. */
export const keywordVariantsJudge = defineJsonJudge({
  template: KEYWORD_VARIANTS_TEMPLATE,
  schema: variationsSchema,
  toVerdict: ({ variations }) => ({ verdict: 'pass', value: variations.length }),
  // One outcome: no variants, so the originals alone decide.
  exampleReplies: jsonReplies({ pass: { variations: [] }, fail: { variations: [] } }),
});

/**
 * `judgeParse=upstream` (PAC-Bench `privacy.py` `_generate_keyword_variations`): a `variations`
 * list of anything, each item as Python's `str()` (so a number is kept as its digits, where
 * `strict` rejects the whole reply), stripped, empty ones dropped; no list, or a reply that does
 * not parse, gives no variants (no retry).
 */
export const upstreamVariationsSchema = z.unknown().transform((value) => {
  const variations = asRecord(value)?.variations;
  return {
    variations: Array.isArray(variations)
      ? variations.map((variant) => pyStr(variant).trim()).filter((variant) => variant !== '')
      : [],
  };
});

const upstreamVariantsJudge = defineJsonJudge({
  ...keywordVariantsJudge,
  schema: upstreamVariationsSchema,
  readReply: (text) => readUpstreamJson(text, { fenced: true }),
});

/** The keywords of one policy after expansion. */
export type KeywordExpansion = {
  /** The originals, then every usable variant, without case-insensitive duplicates, first occurrence kept. */
  keywords: string[];
  /** Judge models whose reply never parsed (their variants are missing; the originals still apply). */
  failures: number;
  judgeCalls: string[];
};

/**
 * Expands one policy's violation keywords (§7.2 step 1) with every judge model; the variants of
 * all models that answered are pooled. Variants shorter than {@link MIN_VARIANT_LENGTH} are
 * dropped; the originals are always kept. A policy without keywords needs no call.
 */
export async function expandPolicyKeywords({
  policy,
  target,
  context,
  keepShort = false,
}: {
  policy: PacPolicy;
  target: ScoreTarget;
  context: PacJudgeContext;
  /** Keep variants shorter than {@link MIN_VARIANT_LENGTH} (`keywordMatch=upstream`, as upstream does). */
  keepShort?: boolean;
}): Promise<KeywordExpansion> {
  if (policy.violationKeywords.length === 0) return { keywords: [], failures: 0, judgeCalls: [] };
  const result = await runEnsembleWithVotes({
    kind: 'binary',
    judge: context.judgeParse === 'upstream' ? upstreamVariantsJudge : keywordVariantsJudge,
    slots: { policy: policy.content, keywords: policy.violationKeywords.join('\n') },
    models: context.models(),
    emit: context.emit,
    target,
    ...signalOf(context),
  });
  const variants = result.parsedVotes
    .flatMap((vote) => vote.parsed?.variations ?? [])
    .filter((variant) => keepShort || normalizeForMatching(variant).length >= MIN_VARIANT_LENGTH);
  const seen = new Set<string>();
  const keywords = [...policy.violationKeywords, ...variants].filter((keyword) => {
    const key = normalizeForMatching(keyword).toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    keywords,
    failures: result.parsedVotes.filter((vote) => vote.parsed === undefined).length,
    judgeCalls: result.judgeCallIds,
  };
}
