import { ConfidantError } from '../../../spec/errors.js';

/**
 * PAC scenario generation cannot go on as asked: the output folder holds a generation with other
 * settings, its journal is damaged, or no scenario could be generated at all. A user error
 * (CLI exit 2): the message says what to change (the original settings, another `--out`, a
 * stronger datagen model or more `--max-attempts`).
 */
export class PacGenerationError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { userError: true, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = 'PacGenerationError';
  }
}
