import { ConfidantError } from '../spec/errors.js';

/**
 * A prompt template that cannot be used as written: unreadable file, bad front matter, a file
 * name that does not match its id and version, undeclared or unused slots, a missing part, or a
 * fill with missing (or, for templates that declare their slots, extra) values. It is an
 * authoring fault, thrown before any model call rather than recorded as a result. It is a user
 * error because templates may also be supplied by the user; the message names the file and the fix.
 */
export class PromptTemplateError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, userError: true });
    this.name = 'PromptTemplateError';
  }
}
