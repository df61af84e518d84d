import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import type { RunProgress } from '../runner/run-evaluation.js';

/** The live numbers of a run, as the runner reports them at the start, per model call and per sample. */
export type ProgressSnapshot = RunProgress;

/** Renders progress: a live bar on a TTY, plain periodic lines otherwise (both on stderr). */
export type ProgressView = { update(snapshot: ProgressSnapshot): void; stop(): void };

/** Causes shown on the progress line; the rest are summed as `+k more`. */
const CAUSES_SHOWN = 2;

function formatCost(cost: number | null): string {
  return cost === null ? 'cost unknown' : `$${cost.toFixed(4)}`;
}

/** Time left at this session's pace: samples recorded before a resume do not make it look fast. */
function formatEta({ snapshot, now }: { snapshot: ProgressSnapshot; now: number }): string {
  if (snapshot.sessionDone === 0) return 'ETA —';
  const perSample = (now - Date.parse(snapshot.startedAt)) / snapshot.sessionDone;
  const seconds = Math.max(0, Math.round((perSample * (snapshot.planned - snapshot.done)) / 1000));
  return `ETA ${seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`}`;
}

/**
 * Errors with their causes: `errors 0`, or `errors 4: connection refused http://127.0.0.1:8000/v1 ×4`
 * (errored samples plus failed judge calls; the two most common causes, then `+k more`).
 */
export function formatErrors(snapshot: Pick<ProgressSnapshot, 'errors' | 'judgeErrors' | 'causes'>): string {
  const total = snapshot.errors + snapshot.judgeErrors;
  if (total === 0 || snapshot.causes.length === 0) return `errors ${total}`;
  const shown = snapshot.causes.slice(0, CAUSES_SHOWN).map((cause) => cause.label);
  const rest = snapshot.causes.length - shown.length;
  return `errors ${total}: ${shown.join('; ')}${rest > 0 ? `; +${rest} more` : ''}`;
}

/** One plain progress line, as printed when stderr is not a terminal. */
export function progressLine({ snapshot, now }: { snapshot: ProgressSnapshot; now: number }): string {
  const tokens = snapshot.inputTokens + snapshot.outputTokens;
  return `progress: ${snapshot.done}/${snapshot.planned} samples, ${formatErrors(snapshot)}, ${tokens} tokens, ${formatCost(snapshot.costUsd)}, ${formatEta({ snapshot, now })}\n`;
}

/**
 * Creates the progress view. The bar (or the first plain line) appears with the first update,
 * which the runner sends before any sample starts; tokens and cost move with every model call.
 * Plain mode prints at most one line per `intervalMs` plus the final one, so logs stay readable.
 */
export function createProgressView({
  isTTY,
  write,
  intervalMs = 10_000,
  now = Date.now,
}: {
  isTTY: boolean;
  write: (text: string) => void;
  intervalMs?: number;
  now?: () => number;
}): ProgressView {
  if (isTTY) {
    // Required only for a terminal: a run whose stderr is a file or a pipe never loads the bar.
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
    const bar = new cliProgress.SingleBar(
      {
        format: '{bar} {value}/{total} | {errors} | tokens {tokens} | {cost} | {eta_text}',
        hideCursor: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    let stopped = false;
    return {
      update(snapshot) {
        if (stopped) return;
        const payload = {
          errors: formatErrors(snapshot),
          tokens: snapshot.inputTokens + snapshot.outputTokens,
          cost: formatCost(snapshot.costUsd),
          eta_text: formatEta({ snapshot, now: now() }),
        };
        if (!started) {
          bar.start(snapshot.planned, snapshot.done, payload);
          started = true;
        } else bar.update(snapshot.done, payload);
      },
      stop() {
        if (started && !stopped) bar.stop();
        stopped = true;
      },
    };
  }
  let lastPrinted: number | undefined;
  let last: ProgressSnapshot | null = null;
  let lastWritten: ProgressSnapshot | null = null;
  let stopped = false;
  return {
    update(snapshot) {
      if (stopped) return;
      last = snapshot;
      const time = now();
      if (lastPrinted === undefined || time - lastPrinted >= intervalMs) {
        lastPrinted = time;
        lastWritten = snapshot;
        write(progressLine({ snapshot, now: time }));
      }
    },
    stop() {
      if (!stopped && last && last !== lastWritten) write(progressLine({ snapshot: last, now: now() }));
      stopped = true;
    },
  };
}
