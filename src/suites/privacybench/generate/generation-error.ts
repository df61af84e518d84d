import { ConfidantError } from '../../../spec/errors.js';

/**
 * Community generation could not finish: a datagen reply never parsed, a unit kept failing the
 * rule checks after its attempts, or the output directory holds a generation with other options.
 * It is a user error (CLI exit 2): the message names what kept failing and what to change
 * (a stronger datagen model, more attempts, another `--out`). `unit` names the failing unit.
 */
export class GenerationError extends ConfidantError {
  readonly unit: string | undefined;

  constructor(message: string, options: { unit?: string; cause?: unknown } = {}) {
    super(message, { userError: true, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = 'GenerationError';
    this.unit = options.unit;
  }
}
