import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../../../spec/errors.js';
import { PacGenerationError } from './pac-generation-error.js';

describe('PacGenerationError', () => {
  it('is a user error (CLI exit 2) with its own name and cause', () => {
    const cause = new Error('disk');
    const error = new PacGenerationError('choose another --out', { cause });
    expect(ConfidantError.isInstance(error)).toBe(true);
    expect(error.userError).toBe(true);
    expect(error.name).toBe('PacGenerationError');
    expect(error.cause).toBe(cause);
  });
});
