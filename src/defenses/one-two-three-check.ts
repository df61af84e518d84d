import type { StagePromptBuilder } from '../orchestration/chain-stage-prompt.js';
import { chainCalls, parseTopology } from '../orchestration/topology.js';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import { cleanCheckPrompt, upstreamCheckPrompt } from './one-two-three-check-prompts.js';
import { answerWithChain } from './role-chain-defense.js';

const CHECK_TOPOLOGY = parseTopology('E>C>X');

/** The two variants of the 1-2-3 check. */
export type OneTwoThreeCheckVariant = 'clean' | 'upstream';

const VARIANTS: Record<OneTwoThreeCheckVariant, { id: string; description: string; buildPrompt: StagePromptBuilder }> =
  {
    clean: {
      id: 'one-two-three-check',
      description:
        '1-2-3 check (AIFC): extractor > checker > executor; the executor acts only on items marked shareable.',
      buildPrompt: cleanCheckPrompt,
    },
    upstream: {
      id: 'one-two-three-check:upstream',
      description: "1-2-3 check reproducing upstream code's prompt quirks (template-free extractor and checker).",
      buildPrompt: upstreamCheckPrompt,
    },
  };

/**
 * The 1-2-3 check (AIFC baseline, `privact.md` §10): extractor > checker > executor, one call
 * each, models `extractor`/`checker`/`executor` (falling back to `agent`), inference only.
 *
 * `clean` (id `one-two-three-check`, alias `aifc`) follows the paper's description: the
 * extractor sees the user's request and the context, the checker sees the extractor's list,
 * the request and where the response goes, and the executor sees the full task prompt, both
 * outputs, the Next Action and the format block.
 *
 * `upstream` (`one-two-three-check:upstream`) reproduces upstream code's quirks on purpose:
 * the extractor's prompt drops the whole task template (an `=` where `+=` was meant), so it
 * sees neither the system line nor the user's instruction, only the trajectory, and is told to
 * extract details regardless of privacy; the checker sees only the extractor's output; the
 * executor puts the earlier outputs after the task's instruction and before the format block.
 * See `docs/defenses.md` for the side-by-side comparison.
 */
export function createOneTwoThreeCheck(variant: OneTwoThreeCheckVariant = 'clean'): Defense {
  const { id, description, buildPrompt } = VARIANTS[variant];
  return {
    id,
    description,
    kind: 'responder',
    appliesTo: ['final-action', 'free-text-answer', 'assistant-turn'],
    answerCalls: chainCalls(CHECK_TOPOLOGY),
    respond: (options) => answerWithChain({ topology: CHECK_TOPOLOGY, defenseId: id, buildPrompt, options }),
  };
}

/** The registry's factory: no parameter gives the clean variant, `upstream` the upstream one. */
export function oneTwoThreeCheckFromParameter(parameter: string | undefined): Defense {
  if (parameter === undefined) return createOneTwoThreeCheck('clean');
  if (parameter === 'upstream') return createOneTwoThreeCheck('upstream');
  throw new PlanValidationError(
    `defense 'one-two-three-check' takes no parameter or ':upstream', got ':${parameter}'; write one-two-three-check or one-two-three-check:upstream`,
  );
}
