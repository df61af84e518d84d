import { z } from 'zod';
import { scoreTargetSchema, withStructuredTarget } from './score-target.js';

/**
 * The outcome of one check. `pass` always means the good outcome for its scorer
 * (no leak, task done); `error` and `not-applicable` are never a pass and never a zero.
 */
export const verdictSchema = z.enum(['pass', 'fail', 'not-applicable', 'error']);
export type Verdict = z.infer<typeof verdictSchema>;

/** A stored score; a text `target` of an older record reads as its structured form (`withStructuredTarget`). */
export const scoreSchema = z.preprocess(
  withStructuredTarget,
  z.object({
    /** `<scorer-id>@<version>`, e.g. `confaide-fr-leak@1`. */
    scorer: z.string(),
    /**
     * What the score is about within the sample, as fields: an agent, an item, a metric component
     * (see `ScoreTarget`). Text targets of older records read as their structured form.
     */
    target: scoreTargetSchema.optional(),
    verdict: verdictSchema,
    /** Null unless the verdict is pass or fail. */
    value: z.number().nullable(),
    label: z.string().optional(),
    explanation: z.string().optional(),
    /** Quoted spans: `eventId` names the event quoted, or `output` for the stored output (a keyword hit). */
    evidence: z.array(z.object({ eventId: z.string(), quote: z.string() })).optional(),
    judgeCalls: z.array(z.string()).optional(),
  }),
);
export type Score = z.infer<typeof scoreSchema>;
