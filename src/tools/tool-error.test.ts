import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { ToolError } from './tool-error.js';

describe('ToolError', () => {
  it('becomes an error tool result carrying only its message', () => {
    const error = new ToolError('ENOENT: no such file or directory, open /workspace/agent/a.txt');
    expect(error.toOutput()).toEqual({
      content: 'ENOENT: no such file or directory, open /workspace/agent/a.txt',
      isError: true,
    });
    expect(error.name).toBe('ToolError');
  });

  it('is recognised across realms by its marker and kept apart from operator errors', () => {
    const error = new ToolError('bad path');
    const lookalike = { [Symbol.for('confidant.tool-error')]: true };
    expect(ToolError.isInstance(error)).toBe(true);
    expect(ToolError.isInstance(lookalike)).toBe(true);
    expect(ToolError.isInstance(new Error('bad path'))).toBe(false);
    expect(ToolError.isInstance(null)).toBe(false);
    expect(ConfidantError.isInstance(error)).toBe(false);
    expect(ToolError.isInstance(new ConfidantError('x'))).toBe(false);
  });

  it('keeps its cause', () => {
    const cause = new Error('inner');
    expect(new ToolError('outer', { cause }).cause).toBe(cause);
  });
});
