import { runCli } from '../../src/cli/run-cli.js';

/** `confidant view` servers started in this process, and how to stop them. */
export type ViewServers = {
  /** Starts `confidant view <dir…> --port 0` and returns its URL once it listens. */
  start: (dir: string | readonly string[]) => Promise<string>;
  /** Aborts every server started and waits for each to exit. */
  stopAll: () => Promise<void>;
};

/** Runs `confidant view` in this process (as the CLI would), reading the URL it prints. */
export function viewServers({ cwd }: { cwd: string }): ViewServers {
  const views: Array<{ stop: AbortController; done: Promise<number> }> = [];
  return {
    async start(dir) {
      let output = '';
      const stop = new AbortController();
      const collect = (text: string) => {
        output += text;
      };
      const done = runCli({
        argv: ['node', 'confidant', 'view', ...(typeof dir === 'string' ? [dir] : dir), '--port', '0'],
        io: { stdout: collect, stderr: collect, env: {}, cwd, home: cwd, isTTY: false, signal: stop.signal },
      });
      views.push({ stop, done });
      for (let i = 0; i < 600; i += 1) {
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (match?.[1]) return match[1];
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`confidant view did not start: ${output}`);
    },
    async stopAll() {
      for (const view of views) view.stop.abort();
      await Promise.all(views.map((view) => view.done));
    },
  };
}
