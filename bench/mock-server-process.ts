// Child process for the HTTP benchmark: runs the loopback mock server so that its CPU time is
// not counted in the client's `process.cpuUsage()`. It reports its port over IPC and stops when
// told to, or when the parent goes away.
import { echoHandler, startMockOpenAIServer } from '../test/support/mock-openai-server.js';

function option(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const raw = process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`bad --${name}: ${raw}`);
  return value;
}

const server = await startMockOpenAIServer({
  handler: echoHandler,
  latencyMs: option('latency', 100),
  maxRequests: option('max-requests', 100_000),
  recordCalls: false,
});

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  server.close().then(() => process.exit(0));
};
process.on('message', (message) => {
  if (message === 'close') stop();
});
process.on('disconnect', stop);
process.send?.({ port: server.port });
