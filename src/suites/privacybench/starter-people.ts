import type { SeededRandom } from '../../spec/seeded-random.js';
import type { Group, Relationship, User } from './community-schema.js';
import { STARTER_AUTHORING } from './starter-authoring.js';

/*
 * The people of the project-authored starter community (privacybench.md §2, "Starter community"):
 * six members in and around Portland, two groups, and a social graph whose job and hobby ties
 * start and end during 2024, authored in `starter-authoring.json`. Every name, persona and line is ours.
 */

/** The starter community's members. */
export const STARTER_USERS: User[] = STARTER_AUTHORING.users;

/** The starter community's groups. */
export const STARTER_GROUPS: Group[] = STARTER_AUTHORING.groups;

/** Conversation topics of mundane pair chats (see starter-templates.ts). */
export type ChatTopic = 'casual' | 'work' | 'family' | 'running' | 'landlord' | 'business' | 'choir';

/** A starter relationship with how many mundane chats it gets per year of activity in 2024. */
export type StarterTie = { relationship: Relationship; chatsPerYear: number; topics: ChatTopic[] };

/** The starter social graph: family ties that last, job and hobby ties that start and end. */
export const STARTER_TIES: StarterTie[] = STARTER_AUTHORING.ties;

const EMOJI = [' 🙃', ' ✨', ' 😅', ' 🌲', ' lol', ' 😌', ''];

/**
 * Rewrites a neutral template line in a member's texting style (the `style.texting` above), so
 * the persona-consistency judge has a real style to compare against.
 */
export function styleText({ userId, text, random }: { userId: string; text: string; random: SeededRandom }): string {
  const trimmed = text.trim();
  switch (userId) {
    case 'maya':
      return `${trimmed.toLowerCase().replace(/\.$/, '')}${random.pick(EMOJI)}`;
    case 'priya':
      return trimmed
        .replace(/\bto be honest\b/gi, 'tbh')
        .replace(/\bon my way\b/gi, 'omw')
        .replace(/\bbecause\b/gi, 'bc')
        .replace(/\byou\b/gi, 'u')
        .replace(/\btonight\b/gi, 'tonite')
        .replace(/[.!]$/, '');
    case 'kofi':
      return trimmed.replace(/^(hey|hi|hello)[,!]?\s+/i, '').replace(/[.!?]?$/, '...');
    case 'elena':
      return trimmed.replace(/\.$/, '!').replace(/^(hi|hello)[,!]?\s+/i, 'Hello dear, ');
    case 'sam': {
      const casual = trimmed
        .replace(/\bgoing to\b/gi, 'gonna')
        .replace(/\bwant to\b/gi, 'wanna')
        .replace(/[.!]$/, '!!');
      return random.chance(0.4) ? `haha ${casual.charAt(0).toLowerCase()}${casual.slice(1)}` : casual;
    }
    default:
      return trimmed;
  }
}

/** Sentences that reveal an attribute value in the owner's voice; `{value}` is the value, `{a}` its article. */
export const REVEAL_LINES: Record<string, string[]> = STARTER_AUTHORING.revealLines;
