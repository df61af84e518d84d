// HTTP throughput benchmark: N samples through the real HTTP path (openai-compatible provider
// + the full wrapper, cache off) against the loopback mock server with a fixed latency L, at
// concurrency C. The server runs in a child process so that only client CPU is measured.
// Usage: npm run bench -- [--n 2000] [--latency 100] [--concurrency 64] [--warmup 500] [--client lean|ai-sdk]
// (--client: the provider's client, default lean; ai-sdk is the @ai-sdk/openai-compatible path.)
// The last line of output is JSON: {n, latencyMs, concurrency, client, wallMs, efficiency, cpuMsPerCall}.

import type { ChildProcess } from 'node:child_process';
import { type OpenAiCompatibleClient, resolveModelRoles } from '../src/models/index.js';
import { MODEL_ROLES } from '../src/runner/role-registry.js';
import type { EmitEvent } from '../src/spec/chat-model.js';
import type { TranscriptEvent } from '../src/spec/event.js';

import { startMockServerProcess } from './bench-processes.js';

function flag(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index < 0) return fallback;
  const arg = args[index]!;
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a non-negative integer, got ${raw}`);
  return value;
}

function clientFlag(): OpenAiCompatibleClient {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === '--client' || arg.startsWith('--client='));
  if (index < 0) return 'lean';
  const arg = args[index]!;
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
  if (raw !== 'lean' && raw !== 'ai-sdk') throw new Error(`--client needs lean or ai-sdk, got ${raw}`);
  return raw;
}

const n = flag('n', 2000);
const client = clientFlag();
const latencyMs = flag('latency', 100);
const concurrency = Math.max(1, flag('concurrency', 64));
// Warm-up calls (not measured) open keep-alive connections and let the JIT compile the hot path.
const warmup = flag('warmup', 500);

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.send('close');
    setTimeout(() => child.kill(), 5_000).unref();
  });
}

const { child, port } = await startMockServerProcess({ latencyMs, maxRequests: n + warmup + 10 });
try {
  const roles = await resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: [{ role: 'agent', spec: `openai-compatible:bench-model@http://127.0.0.1:${port}/v1` }],
    env: {},
    cacheDir: null,
    cacheReads: false,
    maxRetries: 5,
    maxConnections: Math.max(concurrency, 8),
    timeoutMs: 60_000,
    openAiCompatibleClient: client,
  });
  let events = 0;
  const emit: EmitEvent = (event) => {
    events++;
    return { ...event, id: `e${events}`, time: '' } as TranscriptEvent;
  };
  // One run-level abort signal shared by every sample, as the runner does.
  const signal = new AbortController().signal;

  async function runSample(index: number): Promise<void> {
    const models = roles.factory({ sampleId: `s${index}`, epoch: 1, emit, signal });
    const result = await models.model('agent').generate({
      messages: [
        { role: 'system', content: 'You are a benchmark.' },
        { role: 'user', content: `sample ${index}` },
      ],
      settings: { temperature: 0 },
    });
    if (result.text !== `sample ${index}`) throw new Error(`sample ${index}: unexpected reply ${result.text}`);
  }

  async function drive(count: number, offset: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < count) await runSample(offset + next++);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  }

  await drive(warmup, n);
  events = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await drive(n, 0);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  roles.close();
  if (events !== n) throw new Error(`expected ${n} model-call events, got ${events}`);

  const idealMs = (n * latencyMs) / concurrency;
  const efficiency = wallMs > 0 ? idealMs / wallMs : 0;
  const cpuMsPerCall = (cpu.user + cpu.system) / 1000 / n;
  console.log(`HTTP throughput: ${n} calls, latency ${latencyMs} ms, concurrency ${concurrency}, client ${client}`);
  console.log(
    `server: loopback mock in a child process (its CPU is not counted); ${warmup} warm-up calls not measured`,
  );
  console.log(`wall ${wallMs.toFixed(0)} ms vs ideal ${idealMs.toFixed(0)} ms → efficiency ${efficiency.toFixed(3)}`);
  console.log(
    `client CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (user ${(cpu.user / 1000).toFixed(0)}, system ${(cpu.system / 1000).toFixed(0)}) → ${cpuMsPerCall.toFixed(3)} ms per call`,
  );
  console.log(
    JSON.stringify({
      n,
      latencyMs,
      concurrency,
      client,
      wallMs: Math.round(wallMs),
      efficiency: Number(efficiency.toFixed(4)),
      cpuMsPerCall: Number(cpuMsPerCall.toFixed(4)),
    }),
  );
} finally {
  await stopServer(child);
}
