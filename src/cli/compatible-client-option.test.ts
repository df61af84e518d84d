import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { COMPATIBLE_CLIENT_ENV, compatibleClientOption } from './compatible-client-option.js';

describe('compatibleClientOption', () => {
  it('passes nothing when unset or blank, the client when set', () => {
    expect(compatibleClientOption({})).toEqual({});
    expect(compatibleClientOption({ [COMPATIBLE_CLIENT_ENV]: '  ' })).toEqual({});
    expect(compatibleClientOption({ [COMPATIBLE_CLIENT_ENV]: 'ai-sdk' })).toEqual({ openAiCompatibleClient: 'ai-sdk' });
    expect(compatibleClientOption({ [COMPATIBLE_CLIENT_ENV]: ' Lean ' })).toEqual({ openAiCompatibleClient: 'lean' });
  });

  it('refuses any other value as a user error naming the accepted ones', () => {
    const attempt = () => compatibleClientOption({ [COMPATIBLE_CLIENT_ENV]: 'undici' });
    expect(attempt).toThrow(PlanValidationError);
    expect(attempt).toThrow('CONFIDANT_OPENAI_COMPATIBLE_CLIENT must be lean or ai-sdk, not "undici"');
  });
});
