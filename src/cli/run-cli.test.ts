import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('runCli', () => {
  it('refuses an argument holding a NUL byte as a user error (exit 2), not an internal error', async () => {
    let stderr = '';
    const code = await runCli({
      argv: ['node', 'confidant', 'report', '\u0000'],
      io: {
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
        env: {},
        cwd: tmpdir(),
        home: tmpdir(),
        isTTY: false,
        signal: new AbortController().signal,
      },
    });
    expect(code).toBe(2);
    expect(stderr).toBe('confidant: argument 2 ("\\u0000") holds a NUL byte, which no path or value may contain\n');
  });
});
