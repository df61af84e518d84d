import type { COMMUNITY_FILES } from './community-schema.js';

/**
 * Stable ids of the community rule checks, so a generator can decide what to regenerate:
 * - `syntax`: a file or line is not JSON; `schema`: a value does not match the zod schema;
 * - `duplicate-id`: an id that must be unique repeats;
 * - `unknown-reference`: a user, group, document or secret id that does not exist;
 * - `time-order`: a window ends before it starts, or messages go back in time;
 * - `outside-timeline`: a document, message or sharing event outside `timeline`;
 * - `relationship-inactive`: a pair chat or a confidant without an active relationship to the owner;
 * - `membership-inactive`: a group chat participant or group-secret owner who is not a member then;
 * - `participants`: a document's participants do not fit its type (pair, group, owner-only);
 * - `attribute`: a revealed attribute the owner does not have at that time;
 * - `sharing-document`: a sharing event's document cannot carry it (wrong type, audience absent);
 * - `secret-not-revealed`: a sharing event's document has no revealing message by the owner;
 * - `shared-at`: `sharedAt` is not the time of the first revealing message;
 * - `untracked-reveal`: a tagged message reaches someone who is not authorized at that time;
 * - `noise-tagged`: a document marked as noise carries secret tags;
 * - `probe-hint`: a probe hint contains a core component;
 * - `canary`: a canary missing from every tagged reveal, or present in untagged text.
 */
export type CommunityRule =
  | 'syntax'
  | 'schema'
  | 'duplicate-id'
  | 'unknown-reference'
  | 'time-order'
  | 'outside-timeline'
  | 'relationship-inactive'
  | 'membership-inactive'
  | 'participants'
  | 'attribute'
  | 'sharing-document'
  | 'secret-not-revealed'
  | 'shared-at'
  | 'untracked-reveal'
  | 'noise-tagged'
  | 'probe-hint'
  | 'canary';

/** One inconsistency found in a community, located precisely enough to fix or regenerate. */
export type CommunityIssue = {
  rule: CommunityRule;
  file: (typeof COMMUNITY_FILES)[keyof typeof COMMUNITY_FILES];
  /** 1-based line of `documents.jsonl`, for document issues. */
  line?: number;
  /** The document at fault, when known. */
  docId?: string;
  /** The secret at fault, when known (regeneration target). */
  secretId?: string;
  /** Path inside the record: `secrets[3].sharingEvents[0].docIds[1]`, `messages[2].speakerId`; '' for the record. */
  path: string;
  message: string;
};

/**
 * One line per issue: `<file>[:<line>][ (<docId>)]: <path>: <message>`, e.g.
 * `documents.jsonl:42 (chat-0042): participants[1]: user 'u9' does not exist`.
 */
export function formatCommunityIssue(issue: CommunityIssue): string {
  const line = issue.line === undefined ? '' : `:${issue.line}`;
  const doc = issue.docId === undefined ? '' : ` (${issue.docId})`;
  const path = issue.path === '' ? '' : `${issue.path}: `;
  return `${issue.file}${line}${doc}: ${path}${issue.message}`;
}

/** Renders a zod-style path (`['messages', 2, 'speakerId']`) as `messages[2].speakerId`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}
