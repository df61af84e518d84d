import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { GenerationError } from './generation-error.js';

describe('GenerationError', () => {
  it('is a user error that names its unit and keeps its cause', () => {
    const cause = new Error('disk');
    const error = new GenerationError('unit x kept failing', { unit: 'profile/u02', cause });
    expect(ConfidantError.isInstance(error)).toBe(true);
    expect(error.userError).toBe(true);
    expect(error.name).toBe('GenerationError');
    expect(error.unit).toBe('profile/u02');
    expect(error.cause).toBe(cause);
    expect(new GenerationError('plan differs').unit).toBeUndefined();
  });
});
