import { CommanderError } from 'commander';
import { ConfidantError } from '../spec/errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import { preloadCommandLine } from './preload-command-line.js';
import { createProgram } from './program.js';

/**
 * Parses argv, runs the command, and maps every outcome to an exit code: user errors print
 * one line and give 2 (no stack trace); anything unexpected gives 1.
 */
export async function runCli({ argv, io }: { argv: string[]; io: CliIo }): Promise<number> {
  try {
    refuseNulBytes(argv);
    const { program, outcome } = createProgram({ io, preloaded: await preloadCommandLine(argv) });
    await program.parseAsync(argv);
    return outcome.exitCode;
  } catch (error) {
    return reportError({ error, io });
  }
}

/**
 * A shell can never pass a NUL byte (exec takes C strings), but an in-process caller can, and Node
 * refuses such a path with a TypeError deep inside whatever reads it: refused here, naming the word.
 */
function refuseNulBytes(argv: string[]): void {
  const index = argv.slice(2).findIndex((word) => word.includes('\0'));
  if (index === -1) return;
  const word = JSON.stringify(argv[index + 2]).slice(0, 80);
  throw new ConfidantError(`argument ${index + 1} (${word}) holds a NUL byte, which no path or value may contain`, {
    userError: true,
  });
}

function reportError({ error, io }: { error: unknown; io: CliIo }): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message or the help text.
    return error.exitCode === 0 ? EXIT.ok : EXIT.userError;
  }
  if (ConfidantError.isInstance(error) && error.userError) {
    io.stderr(`confidant: ${error.message}\n`);
    return EXIT.userError;
  }
  if (isNulBytePathError(error)) {
    io.stderr(
      `confidant: a path holds a NUL byte (from a --config file or another input file); remove it: ${error.message}\n`,
    );
    return EXIT.userError;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`confidant: internal error: ${message}\n`);
  if (io.env.CONFIDANT_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  else io.stderr('(set CONFIDANT_DEBUG=1 for a stack trace; please report this as a bug)\n');
  return EXIT.internal;
}

/** Node's refusal of a path with a NUL byte: the path came from the user (a config or data file), not from us. */
function isNulBytePathError(error: unknown): error is Error {
  return (
    error instanceof TypeError &&
    (error as NodeJS.ErrnoException).code === 'ERR_INVALID_ARG_VALUE' &&
    error.message.includes('null bytes')
  );
}
