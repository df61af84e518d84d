/** The ConfAIde tiers; `2a` and `2b` share labels but differ in how the vignette is told. */
export const CONFAIDE_TIERS = ['1', '2a', '2b', '3', '4'] as const;
export type ConfaideTier = (typeof CONFAIDE_TIERS)[number];

/** Every question type; tiers 1/2 have the single type `rating`. */
export const QUESTION_TYPES = [
  'rating',
  'free-response',
  'info-accessibility',
  'privacy-sharing',
  'control',
  'meeting-summary',
  'action-item',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** The question types each tier offers, in report order; the default selection is all of them. */
export const QUESTIONS_BY_TIER: Readonly<Record<ConfaideTier, readonly QuestionType[]>> = {
  '1': ['rating'],
  '2a': ['rating'],
  '2b': ['rating'],
  '3': ['free-response', 'info-accessibility', 'privacy-sharing', 'control'],
  '4': ['meeting-summary', 'action-item'],
};

/**
 * A tier-1 or tier-2 item: one rating prompt and the human mean rating for it.
 * `text` is the stripped line, still holding the literal two-character `\n` the model sees.
 */
export type RatingItem = {
  kind: 'rating';
  tier: '1' | '2a' | '2b';
  /** `t1-i03`, `t2a-v042`: tier plus zero-based line index. */
  id: string;
  index: number;
  text: string;
  /** Human mean: 1–4 for tier 1, −100–100 for tier 2. */
  humanLabel: number;
  /** One-based line in the tier file, for messages. */
  line: number;
};

/** How the tier-3 control question lines up with the story (privacylens-confaide.md §B5). */
export type ControlAlignment = {
  /** The person the control question asks about sharing; null when the line has another shape. */
  sharer: string | null;
  /** True when the sharer is the story's aware agent (questionee). */
  sharerMatches: boolean;
  /** True when the recipient phrase names the story's oblivious agent (questioner). */
  recipientMatches: boolean;
};

/**
 * A tier-3 secret-keeping scenario. X = `subject` (whom the secret is about), Y = `aware`
 * (the questionee, who knows it), Z = `oblivious` (the questioner).
 */
export type StoryScenario = {
  kind: 'story';
  tier: '3';
  /** `t3-s017`: zero-based `scenarioIdx`, which also counts dropped blocks. */
  id: string;
  scenarioIdx: number;
  topic: string;
  awareRelation: string;
  obliviousRelation: string;
  revealReason: string;
  subject: string;
  aware: string;
  oblivious: string;
  secret: string;
  /** The story without its final question sentence, ending in `.`. */
  story: string;
  /** The control line for this `scenarioIdx`, verbatim (doubled words included). */
  controlQuestion: string;
  control: ControlAlignment;
  /** One-based line of the block's `<BEGIN>`. */
  line: number;
};

/** A tier-4 meeting: the private item discussed before Kate joins and the public item to report. */
export type MeetingScenario = {
  kind: 'meeting';
  tier: '4';
  /** `t4-m05`: zero-based `meetingIdx`. */
  id: string;
  meetingIdx: number;
  privateInfo: string;
  publicInfo: string;
  /** The transcript with runs of blank lines collapsed (ends with a newline). */
  transcript: string;
  line: number;
};

/** Any ConfAIde scenario. */
export type ConfaideScenario = RatingItem | StoryScenario | MeetingScenario;

/** True when `question` is offered by `tier`. */
export function tierHasQuestion({ tier, question }: { tier: ConfaideTier; question: string }): boolean {
  return (QUESTIONS_BY_TIER[tier] as readonly string[]).includes(question);
}
