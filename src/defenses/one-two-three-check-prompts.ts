import {
  createStagePromptBuilder,
  nextActionLine,
  roleSystemLine,
  type StagePromptBuilder,
  upstreamBlock,
} from '../orchestration/chain-stage-prompt.js';
import { loadRoleTemplate } from '../orchestration/role-template.js';
import { contextText, recipientText, renderStandalone, userRequestText } from '../orchestration/task-sections.js';
import { lazyTemplate } from '../prompts/index.js';

/** The 1-2-3 check's role templates, by variant (see `docs/defenses.md`). */
export const AIFC_TEMPLATES = {
  clean: {
    extractor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-extractor.v1.md')),
    checker: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-checker.v1.md')),
    executor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-executor.v1.md')),
  },
  upstream: {
    extractor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-upstream-extractor.v1.md')),
    checker: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-upstream-checker.v1.md')),
    executor: lazyTemplate(() => loadRoleTemplate(import.meta.url, './prompts/aifc-upstream-executor.v1.md')),
  },
} as const;

const NO_RECIPIENT = "Not stated apart from the user's request.";

/**
 * Clean 1-2-3 check prompts (`privact.md` §10, default):
 * - extractor: its system line, the user's request (`user-input` sections, else the task's
 *   instruction) and the context (`trajectory` sections, else the other sections), in the
 *   suite's layout; no tool specifications, no Next Action, no format block;
 * - checker: its system line, the user's request, where the response goes (`recipient`
 *   sections and the final action) and the extractor's list;
 * - executor: the full task prompt with its system line, both earlier outputs, the Next
 *   Action and the format block (the generic actor prompt with the 1-2-3 executor wording).
 */
export const cleanCheckPrompt: StagePromptBuilder = (context) => {
  const { prompt, topology, member, upstream } = context;
  const templates = AIFC_TEMPLATES.clean;
  if (member.role === 'executor') return cleanExecutor(context);
  const template = member.role === 'checker' ? templates.checker : templates.extractor;
  const systemLine = roleSystemLine({ topology, member, upstream, privacyMode: prompt.privacyMode, template });
  const body = template.render(template.body, {
    user_request: userRequestText(prompt),
    context: contextText(prompt),
    recipient_context: recipientText(prompt) ?? NO_RECIPIENT,
    extractor_output: upstreamBlock(upstream),
  });
  return renderStandalone({ prompt, systemLine, body });
};

const cleanExecutor = createStagePromptBuilder({ templates: { executor: AIFC_TEMPLATES.clean.executor } });

/**
 * Upstream 1-2-3 check prompts (`privact.md` §10, `one-two-three-check:upstream`), kept for
 * faithful reproduction of upstream's quirks:
 * - extractor: one user message with no task template, no system line and no user
 *   instruction: an extraction header, an instruction to extract work, case-study, event and
 *   affiliation details regardless of privacy, then the past trajectory;
 * - checker: one user message with only a checking header, the extractor's output and an
 *   instruction to judge what is public by its own judgment (no trajectory, no request);
 * - executor: the full task prompt with an executor system line, then the usual tail (Next
 *   Action, the task's instruction), then both earlier outputs, then the format block.
 */
export const upstreamCheckPrompt: StagePromptBuilder = ({ prompt, topology, member, upstream }) => {
  const templates = AIFC_TEMPLATES.upstream;
  if (member.role === 'extractor') {
    const content = templates.extractor.render(templates.extractor.body, { trajectory: contextText(prompt) });
    return [{ role: 'user', content }];
  }
  if (member.role === 'checker') {
    const content = templates.checker.render(templates.checker.body, { extractor_output: upstreamBlock(upstream) });
    return [{ role: 'user', content }];
  }
  const template = templates.executor;
  const systemLine = roleSystemLine({ topology, member, upstream, privacyMode: prompt.privacyMode, template });
  const instruction = [
    nextActionLine(prompt),
    prompt.instruction,
    upstreamBlock(upstream),
    prompt.outputContract?.formatBlock,
  ]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join('\n\n');
  return prompt.render({ systemLine, instruction });
};
