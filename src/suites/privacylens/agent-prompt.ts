import { lazyTemplate, loadPromptTemplate, type PromptTemplate, promptTemplatePath } from '../../prompts/index.js';
import type { Message } from '../../spec/message.js';
import type { TaskPrompt } from '../../spec/task-prompt.js';
import type { PrivacyLensCase } from './privacylens-case.js';
import { renderToolkits } from './render-toolkits.js';

/**
 * `--set promptLayout=…`: `single-user` (default) sends one user message with the system line on
 * top, as PrivacyLens and PrivAct do through the chat template; `system-user` sends the system
 * line as a system message and the rest as the user message.
 */
export const PROMPT_LAYOUTS = ['single-user', 'system-user'] as const;
/** One of {@link PROMPT_LAYOUTS}. */
export type PromptLayout = (typeof PROMPT_LAYOUTS)[number];

/** Our agent prompt template, `privacylens-agent.v1.md` (copied to dist by scripts/copy-assets.mjs). */
export const agentPromptTemplate: PromptTemplate = lazyTemplate(() =>
  loadPromptTemplate({
    path: promptTemplatePath(import.meta.url, './privacylens-agent.v1.md'),
    sectioned: true,
  }),
);

/** The two system-info lines (§A4 item 1); the only difference between the two prompt types. */
export const SYSTEM_LINES = {
  naive: agentPromptTemplate.part('system-naive'),
  'privacy-enhanced': agentPromptTemplate.part('system-privacy-enhanced'),
} as const;

/** Section ids, in prompt order: the template's `section:<id>` parts. */
export const AGENT_PROMPT_SECTION_IDS: readonly string[] = agentPromptTemplate.parts
  .filter((part) => part.name.startsWith('section:'))
  .map((part) => part.name.slice('section:'.length));

/** The agent prompt of one case and the toolkits it had to leave out. */
export type AgentPrompt = {
  prompt: TaskPrompt;
  /** Toolkits the case names that have no spec (e.g. `GoogleFormFiller` in `main357`). */
  missingToolkits: string[];
};

/**
 * Builds the single-step final-action prompt of a case (§A4) as a TaskPrompt:
 * - `systemLine`: the naive system line; `privacyVariants.systemLine` holds the privacy-enhanced one
 *   for the privacy-prompt defense;
 * - `sections`: environment setup, tool specifications, scratchpad, format requirements, user input
 *   (which opens `## Start the Execution`) and past trajectory. Bodies carry their own headings and
 *   labels and have no `title`, so any renderer that joins bodies reproduces the layout;
 * - `instruction`: write the NEXT Action/Action Input, starting with the Thought; Action must be the
 *   case's final action;
 * - `outputContract`: PrivAct's `<RESULT>` response-format block (used by role-chain actor stages,
 *   not by the single-agent prompt) and the final action's name.
 *
 * `render` joins system line, section bodies and instruction with blank lines, in one user message
 * or, under `system-user`, as a system message plus a user message. It reads the slots through
 * `this`, so a spread copy with a replaced `systemLine` (`{ ...prompt, systemLine }`) renders its
 * own value; `overrides` win over both.
 */
export function buildAgentPrompt({
  privacyCase,
  layout = 'single-user',
}: {
  privacyCase: PrivacyLensCase;
  layout?: PromptLayout;
}): AgentPrompt {
  const { trajectory } = privacyCase;
  const toolkits = renderToolkits(trajectory.toolkits);
  const slots = {
    user_name: trajectory.user_name,
    user_email: trajectory.user_email,
    toolkits: toolkits.text,
    tool_names: toolkits.toolNames.join(', '),
    user_instruction: trajectory.user_instruction,
    executable_trajectory: trajectory.executable_trajectory,
    final_action: trajectory.final_action,
  };
  // Trimmed after filling: the toolkit block ends in a newline, and parts are joined by blank lines.
  const part = (name: string) => agentPromptTemplate.fill(agentPromptTemplate.part(name), slots).trim();
  const prompt: TaskPrompt = {
    systemLine: SYSTEM_LINES.naive,
    sections: AGENT_PROMPT_SECTION_IDS.map((id) => ({ id, body: part(`section:${id}`) })),
    instruction: part('instruction'),
    outputContract: { formatBlock: part('format-block'), finalActionName: trajectory.final_action },
    privacyVariants: { systemLine: SYSTEM_LINES['privacy-enhanced'] },
    render(overrides?: Partial<Pick<TaskPrompt, 'systemLine' | 'instruction'>>): Message[] {
      const systemLine = overrides?.systemLine ?? this.systemLine;
      const instruction = overrides?.instruction ?? this.instruction;
      const body = [
        ...this.sections.map((section) => (section.title ? `${section.title}:\n${section.body}` : section.body)),
        instruction,
      ]
        .filter((text) => text !== '')
        .join('\n\n');
      if (systemLine === '') return [{ role: 'user', content: body }];
      if (layout === 'system-user') {
        return [
          { role: 'system', content: systemLine },
          { role: 'user', content: body },
        ];
      }
      return [{ role: 'user', content: `${systemLine}\n\n${body}` }];
    },
  };
  return { prompt, missingToolkits: toolkits.missing };
}
