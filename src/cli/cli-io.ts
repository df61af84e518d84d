/**
 * The process facts a command may use. `main.ts` fills it from the real process; tests
 * can pass their own. Only cli/ builds one: library code receives plain values.
 */
export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  isTTY: boolean;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM; commands stop cleanly and leave runs resumable. */
  signal: AbortSignal;
};

/** Exit codes of the CLI, as documented in the README. */
export const EXIT = {
  ok: 0,
  internal: 1,
  userError: 2,
  stoppedEarly: 3,
  finishedWithErrors: 4,
} as const;
