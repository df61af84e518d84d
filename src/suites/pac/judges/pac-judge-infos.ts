import { type JudgeTemplate, judgeInfo } from '../../../judges/index.js';
import type { JudgeInfo } from '../../../spec/judge-info.js';
import { AWARENESS_TEMPLATE, awarenessTemplateFor, UPSTREAM_AWARENESS_TEMPLATE } from './awareness-judge.js';
import { CONTEXT_ALIGNMENT_TEMPLATE } from './context-alignment-judge.js';
import { GEVAL_TEMPLATE } from './geval-entity-judge.js';
import { KEYWORD_VARIANTS_TEMPLATE } from './keyword-variants-judge.js';
import { PAC_LLM_TASK_MODES, type PacJudgeOptions } from './pac-judge-options.js';
import { TASK_ARTIFACT_TEMPLATE } from './task-artifact-judge.js';
import { TASK_MESSAGE_TEMPLATE } from './task-message-judge.js';

/** What selects the templates; `judgeParse` (default strict) picks the awareness template's version. */
export type PacJudgeTemplateOptions = Pick<PacJudgeOptions, 'taskMode' | 'privacyMode' | 'grounding'> &
  Partial<Pick<PacJudgeOptions, 'judgeParse'>>;

/** Every PAC LLM judge template, for listings (`confidant list judges`). */
export const PAC_JUDGE_TEMPLATES: readonly JudgeTemplate[] = [
  TASK_MESSAGE_TEMPLATE,
  TASK_ARTIFACT_TEMPLATE,
  KEYWORD_VARIANTS_TEMPLATE,
  AWARENESS_TEMPLATE,
  UPSTREAM_AWARENESS_TEMPLATE,
  GEVAL_TEMPLATE,
  CONTEXT_ALIGNMENT_TEMPLATE,
];

/**
 * The LLM judge templates these options use (id, version, template hash), for the run header.
 * Deterministic judges (`markers`, `checks`, `keyword-only`, the `pac-keyword` check, outcome checks) have no template and
 * are not listed, so an empty list means the plan needs no `judge` model. A variant that judges
 * no privacy still lists the privacy templates: they are part of the configuration.
 */
export function pacJudgeInfos(options: PacJudgeTemplateOptions): JudgeInfo[] {
  return pacJudgeTemplates(options).map(judgeInfo);
}

/** The LLM judge templates these options render, in the order {@link pacJudgeInfos} lists them. */
export function pacJudgeTemplates(options: PacJudgeTemplateOptions): JudgeTemplate[] {
  const templates: JudgeTemplate[] = [];
  if (options.taskMode === 'messages') templates.push(TASK_MESSAGE_TEMPLATE);
  if (options.taskMode === 'artifact') templates.push(TASK_ARTIFACT_TEMPLATE);
  if (options.privacyMode === 'keyword-awareness') {
    templates.push(KEYWORD_VARIANTS_TEMPLATE, awarenessTemplateFor(options.judgeParse));
  }
  if (options.privacyMode === 'geval-entity') templates.push(GEVAL_TEMPLATE);
  if (options.grounding && PAC_LLM_TASK_MODES.includes(options.taskMode)) templates.push(CONTEXT_ALIGNMENT_TEMPLATE);
  return templates;
}
