import { STARTER_AUTHORING } from './starter-authoring.js';
import type { ChatTopic } from './starter-people.js';

/*
 * Our own templates for the mundane pair and group chats of the starter community (authored in
 * `starter-authoring.json`). Lines are neutral English; the builder fills `{slot}`s (starter-templates.ts SLOT_VALUES) and rewrites each
 * line in its speaker's texting style. Nothing here may contain a secret's canary.
 */

/** A two-person exchange: `a` opens (the document owner), `b` answers. */
export type ChatTemplate = { topic: ChatTopic; lines: Array<{ who: 'a' | 'b'; text: string }> };

/** Mundane pair conversations by topic. */
export const CHAT_TEMPLATES: ChatTemplate[] = STARTER_AUTHORING.chatTemplates;

/** Group chats by group id; speakers are drawn from the members at the time. */
export const GROUP_TEMPLATES: Record<string, string[][]> = STARTER_AUTHORING.groupTemplates;
