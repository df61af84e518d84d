import { type JudgeTemplate, loadJudgeTemplate } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';

/**
 * The datagen prompt of each generation step: versioned template files in `prompts/` (copied to
 * dist by scripts/copy-assets.mjs), read with the judge template reader, which checks the front
 * matter and that the body uses exactly its slots (`task`, `feedback`). Changing a template's
 * wording bumps its version, and a version change stops an unfinished generation from resuming
 * with mixed prompts.
 */
export const GENERATION_STEPS = [
  'seeds',
  'seed-relationships',
  'expansion',
  'groups',
  'timeline',
  'profile',
  'secrets',
  'sharing',
  'chats',
  'group-chats',
  'ai-chats',
  'blogs',
  'purchases',
] as const;

/** One generation step (one template). */
export type GenerationStep = (typeof GENERATION_STEPS)[number];

/** The loaded template of every step. */
export const GENERATION_PROMPTS: Readonly<Record<GenerationStep, JudgeTemplate>> = Object.freeze(
  Object.fromEntries(
    GENERATION_STEPS.map((step) => [
      step,
      lazyTemplate(() =>
        loadJudgeTemplate({ path: promptTemplatePath(import.meta.url, `prompts/privacybench-gen-${step}.v1.md`) }),
      ),
    ]),
  ) as Record<GenerationStep, JudgeTemplate>,
);

/** `<id>@<version>` → template SHA-256, for the generation journal (resume needs the same prompts). */
export function generationPromptVersions(): Record<string, string> {
  return Object.fromEntries(
    GENERATION_STEPS.map((step) => {
      const template = GENERATION_PROMPTS[step];
      return [`${template.id}@${template.version}`, template.sha256];
    }),
  );
}
