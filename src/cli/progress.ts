import cliProgress from 'cli-progress';
import type { RunProgress } from '../runner/index.js';

/** The live numbers of a run, as the runner reports them after every sample. */
export type ProgressSnapshot = RunProgress;

/** Renders progress: a live bar on a TTY, plain periodic lines otherwise (both on stderr). */
export type ProgressView = { update(snapshot: ProgressSnapshot): void; stop(): void };

function formatCost(cost: number | null): string {
  return cost === null ? 'cost unknown' : `$${cost.toFixed(4)}`;
}

function formatEta({ snapshot, now }: { snapshot: ProgressSnapshot; now: number }): string {
  if (snapshot.done === 0) return 'ETA —';
  const perSample = (now - Date.parse(snapshot.startedAt)) / snapshot.done;
  const seconds = Math.round((perSample * (snapshot.planned - snapshot.done)) / 1000);
  return `ETA ${seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`}`;
}

/** One plain progress line, as printed when stderr is not a terminal. */
export function progressLine({ snapshot, now }: { snapshot: ProgressSnapshot; now: number }): string {
  const tokens = snapshot.inputTokens + snapshot.outputTokens;
  return `progress: ${snapshot.done}/${snapshot.planned} samples, ${snapshot.errors} errors, ${tokens} tokens, ${formatCost(snapshot.costUsd)}, ${formatEta({ snapshot, now })}\n`;
}

/**
 * Creates the progress view. Plain mode prints at most one line per `intervalMs` plus the
 * final one, so logs stay readable in CI.
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
    const bar = new cliProgress.SingleBar(
      {
        format: '{bar} {value}/{total} | errors {errors} | tokens {tokens} | {cost} | {eta_text}',
        hideCursor: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(snapshot) {
        const payload = {
          errors: snapshot.errors,
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
        if (started) bar.stop();
      },
    };
  }
  let lastPrinted = 0;
  let last: ProgressSnapshot | null = null;
  let lastWritten: ProgressSnapshot | null = null;
  return {
    update(snapshot) {
      last = snapshot;
      const time = now();
      if (time - lastPrinted >= intervalMs) {
        lastPrinted = time;
        lastWritten = snapshot;
        write(progressLine({ snapshot, now: time }));
      }
    },
    stop() {
      if (last && last !== lastWritten) write(progressLine({ snapshot: last, now: now() }));
    },
  };
}
