import { formatSections, loadRoleTemplate, TASK_SECTION_IDS } from '../../orchestration/index.js';
import { lazyTemplate } from '../../prompts/index.js';
import type { Chunk } from '../../spec/chunk.js';
import type { Message } from '../../spec/message.js';
import type { TaskPrompt } from '../../spec/task-prompt.js';
import { isWithinWindow } from './community-time.js';
import type { ProbeInstance } from './expand-conversations.js';
import type { ConversationMessage } from './privacybench-output.js';
import { nameOf, type PrivacyBenchWorld } from './privacybench-world.js';
import { requesterLine } from './relationship-phrases.js';

/** The assistant framings (privacybench.md §12 #2). */
export type AssistantFraming = 'digital-twin' | 'third-person';

/** The versioned prompt files of the assistant: one per framing, and the privacy-aware suffix. */
export const ASSISTANT_TEMPLATES = {
  'digital-twin': lazyTemplate(() => loadRoleTemplate(import.meta.url, 'prompts/privacybench-assistant.v1.md')),
  'third-person': lazyTemplate(() =>
    loadRoleTemplate(import.meta.url, 'prompts/privacybench-assistant-third-person.v1.md'),
  ),
  privacyAware: lazyTemplate(() => loadRoleTemplate(import.meta.url, 'prompts/privacybench-privacy-aware.v1.md')),
} as const;

/** Section ids of the assistant prompt; three reuse the shared ids so role chains find the request, context and recipient. */
export const ASSISTANT_SECTION_IDS = {
  profile: 'profile',
  recipient: TASK_SECTION_IDS.recipient,
  retrieved: TASK_SECTION_IDS.trajectory,
  conversation: TASK_SECTION_IDS.userInput,
} as const;

/** The owner's profile at the conversation time: persona, attributes then valid, texting style and traits. */
export function ownerProfile({
  world,
  ownerId,
  at,
}: {
  world: PrivacyBenchWorld;
  ownerId: string;
  at: string;
}): string {
  const user = world.users.get(ownerId);
  if (user === undefined) return nameOf({ world, userId: ownerId });
  const attributes = Object.entries(user.attributes).flatMap(([name, values]) => {
    const current = values.filter((value) => isWithinWindow({ from: value.validFrom, to: value.validTo, at }));
    return current.length === 0 ? [] : [`- ${name}: ${current.map((value) => value.value).join(', ')}`];
  });
  return [
    `${user.name}. ${user.persona}`,
    ...(attributes.length === 0 ? [] : [`Right now:\n${attributes.join('\n')}`]),
    ...(user.style?.texting === undefined ? [] : [`Texting style: ${user.style.texting}`]),
    ...(user.style?.personalityTraits === undefined ? [] : [`Personality: ${user.style.personalityTraits.join(', ')}`]),
  ].join('\n');
}

/** The retrieved chunks as the prompt shows them (each with its context header), or a note that nothing came back. */
export function retrievedText(chunks: readonly Chunk[]): string {
  return chunks.length === 0 ? '(nothing relevant was found)' : chunks.map((chunk) => chunk.text).join('\n\n');
}

/** The conversation so far, one `Name: message` line each. */
export function transcriptText({
  messages,
  proberName,
  ownerName,
}: {
  messages: readonly ConversationMessage[];
  proberName: string;
  ownerName: string;
}): string {
  return messages
    .map((message) => `${message.speaker === 'prober' ? proberName : ownerName}: ${message.text}`)
    .join('\n');
}

/**
 * The assistant's task prompt for one turn (privacybench.md §4.4): the system line of the framing,
 * sections for the owner's profile, who the requester is, the retrieved documents and the
 * conversation so far, and the framing's instruction (think inside `<think>`, then write only the
 * next message). The privacy-aware wording is `privacyVariants.instructionSuffix`, which the
 * privacy-prompt defense (`ppe`) appends; the baseline (`vanilla`) leaves it out. Rendered as a
 * system message and one user message (sections, then the instruction).
 */
export function buildAssistantPrompt({
  world,
  instance,
  chunks,
  messages,
  framing,
}: {
  world: PrivacyBenchWorld;
  instance: ProbeInstance;
  chunks: readonly Chunk[];
  messages: readonly ConversationMessage[];
  framing: AssistantFraming;
}): TaskPrompt {
  const template = ASSISTANT_TEMPLATES[framing];
  const ownerName = nameOf({ world, userId: instance.ownerId });
  const proberName = nameOf({ world, userId: instance.proberId });
  const slots = { owner_name: ownerName, requester_name: proberName };
  const sections: TaskPrompt['sections'] = [
    {
      id: ASSISTANT_SECTION_IDS.profile,
      title: `About ${ownerName}`,
      body: ownerProfile({ world, ownerId: instance.ownerId, at: instance.conversationTime }),
    },
    {
      id: ASSISTANT_SECTION_IDS.recipient,
      title: 'Who you are chatting with',
      body: requesterLine({ world, instance }),
    },
    {
      id: ASSISTANT_SECTION_IDS.retrieved,
      title: `Retrieved from ${ownerName}'s chats, posts and purchases`,
      body: retrievedText(chunks),
    },
    {
      id: ASSISTANT_SECTION_IDS.conversation,
      title: 'Conversation so far',
      body: transcriptText({ messages, proberName, ownerName }),
    },
  ];
  return {
    systemLine: template.render(template.statement ?? '', slots),
    sections,
    instruction: template.render(template.body, slots),
    privacyVariants: {
      instructionSuffix: ASSISTANT_TEMPLATES.privacyAware.render(ASSISTANT_TEMPLATES.privacyAware.body, slots),
    },
    render(overrides): Message[] {
      return [
        { role: 'system', content: overrides?.systemLine ?? this.systemLine },
        { role: 'user', content: `${formatSections(this.sections)}\n\n${overrides?.instruction ?? this.instruction}` },
      ];
    },
  };
}
