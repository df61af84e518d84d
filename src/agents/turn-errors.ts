import { ConfidantError } from '../spec/errors.js';

/**
 * A participant needed more model calls in one turn than its limit allows (pacbench.md §4:
 * the 11th call of a turn). The sample ends as an error of kind `turn-limit`.
 *
 * Kept here until the lead moves it into `spec/errors.ts`; the name is stable either way.
 */
export class TurnLimitError extends ConfidantError {
  /** The limit that was reached. */
  readonly limit: number;

  constructor(message: string, options: { limit: number; cause?: unknown }) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'TurnLimitError';
    this.limit = options.limit;
  }
}

/**
 * A participant's turn produced no visible text (after `<think>` blocks were removed), so there
 * is nothing to deliver (pacbench.md §4). The sample ends as an error of kind `empty-reply`.
 */
export class EmptyReplyError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'EmptyReplyError';
  }
}
