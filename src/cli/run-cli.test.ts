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

describe('runCli on a NUL byte from a file', () => {
  it('reports a path holding a NUL byte (e.g. "out" in a --config file) as a user error, not an internal error', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'confidant-nul-'));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ out: 'a\u0000b', model: ['agent=mock:echo'] }));
    let stderr = '';
    const code = await runCli({
      argv: ['node', 'confidant', 'run', 'toy-leak', '--config', join(dir, 'c.json')],
      io: {
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
        env: {},
        cwd: dir,
        home: dir,
        isTTY: false,
        signal: new AbortController().signal,
      },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^confidant: a path holds a NUL byte \(from a --config file or another input file\); remove it: /m,
    );
    expect(stderr).not.toMatch(/internal error/);
  });
});
