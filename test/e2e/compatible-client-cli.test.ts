import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

// CONFIDANT_OPENAI_COMPATIBLE_CLIENT through the real CLI: the lean client by default, the AI SDK
// when asked (told apart by the User-Agent the AI SDK sends), a bad value a user error.

let work: string;
let server: MockOpenAIServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-client-'));
  server = await startMockOpenAIServer({ models: ['m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

async function runWith(client: string | undefined) {
  server.calls.length = 0;
  const result = await runCliInProcess({
    args: ['run', 'toy-leak', '--model', `openai-compatible:m@${server.baseURL}`, '--limit', '1', '--no-cache'],
    env: {
      HOME: work,
      CONFIDANT_CACHE_DIR: join(work, 'cache'),
      ...(client === undefined ? {} : { CONFIDANT_OPENAI_COMPATIBLE_CLIENT: client }),
    },
    cwd: work,
  });
  return { result, userAgents: server.calls.map((call) => call.headers['user-agent'] ?? '') };
}

describe('CONFIDANT_OPENAI_COMPATIBLE_CLIENT', () => {
  it('runs on the lean client by default and on the AI SDK with ai-sdk', async () => {
    const lean = await runWith(undefined);
    expect(lean.result.stderr).not.toContain('internal error');
    expect(lean.result.code).toBe(0);
    expect(lean.userAgents.length).toBeGreaterThan(0);
    for (const agent of lean.userAgents) expect(agent).not.toContain('ai-sdk');
    const sdk = await runWith('ai-sdk');
    expect(sdk.result.code).toBe(0);
    expect(sdk.userAgents).toHaveLength(lean.userAgents.length);
    for (const agent of sdk.userAgents) expect(agent).toContain('ai-sdk/openai-compatible');
  });

  it('refuses another value with exit 2 and one line naming the variable, before any call', async () => {
    const { result, userAgents } = await runWith('fast');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CONFIDANT_OPENAI_COMPATIBLE_CLIENT must be lean or ai-sdk, not "fast"');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(userAgents).toEqual([]);
  });
});
