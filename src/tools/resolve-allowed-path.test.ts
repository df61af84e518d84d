import { describe, expect, it } from 'vitest';
import { resolveAllowedPath } from './resolve-allowed-path.js';
import { ToolError } from './tool-error.js';

const directories = ['/workspace/agent', '/workspace/shared'];
const resolve = (requested: string) => resolveAllowedPath({ requested, directories });
const refusal = (requested: string): string => {
  try {
    resolve(requested);
  } catch (error) {
    if (ToolError.isInstance(error)) return error.message;
    throw error;
  }
  return 'resolved';
};

describe('resolveAllowedPath', () => {
  it('resolves relative paths against the folders in order, the first that keeps them inside', () => {
    expect(resolve('notes.md')).toEqual({
      absolute: '/workspace/agent/notes.md',
      directoryIndex: 0,
      relative: 'notes.md',
    });
    expect(resolve('')).toEqual({ absolute: '/workspace/agent', directoryIndex: 0, relative: '' });
    expect(resolve('.')).toEqual({ absolute: '/workspace/agent', directoryIndex: 0, relative: '' });
    expect(resolve('../shared/r.md')).toEqual({
      absolute: '/workspace/shared/r.md',
      directoryIndex: 1,
      relative: 'r.md',
    });
  });

  it('normalises //, . and .. and trailing slashes in absolute paths', () => {
    expect(resolve('/workspace//shared/./a/../b.md/').absolute).toBe('/workspace/shared/b.md');
    expect(resolve('/workspace/agent/../shared').relative).toBe('');
    expect(resolve('/workspace/shared/x/../../agent/y').directoryIndex).toBe(0);
  });

  it('refuses paths that end outside every folder, naming the folders', () => {
    expect(refusal('../agent_b/secret.md')).toBe(
      'Access denied - path outside allowed directories: /workspace/agent_b/secret.md not in /workspace/agent, /workspace/shared',
    );
    expect(refusal('/workspace/agent/../../etc/passwd')).toContain(': /etc/passwd not in');
    expect(refusal('/workspace')).toContain(': /workspace not in');
    expect(refusal('/workspace/agentX/f')).toContain(': /workspace/agentX/f not in');
    expect(refusal('~/x')).toContain(': ~/x not in');
  });

  it('refuses the characters a path check could be fooled by', () => {
    expect(refusal('a\u0000b')).toBe('Access denied - the path contains a NUL character');
    expect(refusal('..\\agent_b\\x')).toContain('backslashes are not path separators');
    expect(refusal('%2e%2e/agent_b/x')).toContain('percent-encoded');
    expect(refusal('..%2Fagent_b')).toContain('percent-encoded');
    expect(refusal('C:/x')).toBe('Access denied - Windows-style path received on a POSIX host: C:/x');
    expect(refusal('50% done.md')).toBe('resolved');
  });

  it('picks the deepest folder when folders nest, and handles the filesystem root', () => {
    expect(resolveAllowedPath({ requested: '/a/b/c', directories: ['/a', '/a/b'] })).toEqual({
      absolute: '/a/b/c',
      directoryIndex: 1,
      relative: 'c',
    });
    expect(resolveAllowedPath({ requested: '/x/y', directories: ['/'] }).relative).toBe('x/y');
    expect(() => resolveAllowedPath({ requested: 'x', directories: [] })).toThrow(ToolError);
  });
});
