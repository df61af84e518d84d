import { ConfidantError } from '../spec/errors.js';

/**
 * A data generation cannot go on as asked: the output folder holds a generation with other
 * settings, its journal is damaged, a datagen reply never parsed, a unit kept failing its checks
 * after its attempts, or nothing could be generated at all. A user error (CLI exit 2): the message
 * says what to change (the original settings, another `--out`, a stronger datagen model, more
 * `--max-attempts`). `unit` names the failing unit when there is one.
 */
export class GenerationError extends ConfidantError {
  readonly unit: string | undefined;

  constructor(message: string, options: { unit?: string; cause?: unknown } = {}) {
    super(message, { userError: true, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = 'GenerationError';
    this.unit = options.unit;
  }
}
