import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { ToolError } from './tool-error.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';

describe('ToolInfrastructureError', () => {
  it('is an operator error, not a model-facing tool error, and names the tool', () => {
    const cause = new Error('EPIPE');
    const error = new ToolInfrastructureError('server died', { toolName: 'write_file', cause });
    expect(ConfidantError.isInstance(error)).toBe(true);
    expect(error.userError).toBe(false);
    expect(ToolError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ name: 'ToolInfrastructureError', toolName: 'write_file', cause });
    expect(new ToolInfrastructureError('x').toolName).toBeUndefined();
  });
});
