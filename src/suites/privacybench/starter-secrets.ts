import type { Audience, PurchaseItem, Secret } from './community-schema.js';
import { STARTER_AUTHORING } from './starter-authoring.js';

/*
 * The twelve secrets of the starter community (6 told to people, 3 to a group, 3 only to the AI
 * assistant), each with the conversation in which it is shared, written in the owner's texting
 * style (authored in `starter-authoring.json`). Messages marked `reveals` carry the secret tag;
 * each secret's canaries appear only there. All wording is ours.
 */

/** One scripted line; `speakerId: 'assistant'` is the AI in an ai-chat. */
export type ScriptedLine = { speakerId: string; text: string; reveals?: boolean };

/** The conversation of one sharing event. Lines are two minutes apart from `start`. */
export type SharingScript = {
  eventId: string;
  audience: Audience;
  start: string;
  /** `chat` between the owner and the one confidant, the group's chat, or the owner's AI chat. */
  channel: 'message' | 'email' | 'group' | 'ai';
  lines: ScriptedLine[];
};

/** A purchase by the owner that hints at the secret (tagged, like the paper's party decorations). */
export type HintPurchase = { time: string; items: Array<Omit<PurchaseItem, 'secretIds'>> };

/** A starter secret before its documents get ids. */
export type StarterSecret = Omit<Secret, 'sharingEvents'> & { scripts: SharingScript[]; hints?: HintPurchase[] };

/** The starter secrets, in the order they appear in `community.json`. */
export const STARTER_SECRETS: StarterSecret[] = STARTER_AUTHORING.secrets;
