import { ConfidantError } from '../spec/errors.js';

/**
 * A judge template that cannot be used as written: bad front matter, a file name that
 * does not match its id and version, undeclared or unused slots, or a render call with
 * missing or extra slot values. It is a programming or authoring fault, so it is thrown
 * (before any model call) rather than recorded as a verdict. It is a user error because
 * templates may also be supplied by the user; the message names the file and the fix.
 */
export class JudgeTemplateError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, userError: true });
    this.name = 'JudgeTemplateError';
  }
}
