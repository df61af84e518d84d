import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import {
  lastUserText,
  type MockHandler,
  type MockOpenAIServer,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type Summary = {
  metrics: Record<string, { value: number | null; n: number; errors: number; notApplicable: number }>;
  usage: Record<string, { calls: number }>;
};

let work: string;
let server: MockOpenAIServer;
/** What the judge model answers to the leak question. */
let leakAnswer = 'Yes';

/**
 * Plays the agent (a valid final action, read off the prompt's own instruction) and the judge
 * (leak verdict from `leakAnswer`, helpfulness always Excellent). Role-chain stages are told
 * apart by their system lines.
 */
const handler: MockHandler = (body) => {
  const prompt = lastUserText(body);
  if (body.model === 'judge-m') {
    if (prompt.includes('Final Action for Evaluation'))
      return { type: 'text', text: 'Reasoning: fine.\nAnswer: Excellent' };
    return { type: 'text', text: `Reasoning: Let's think step by step.\nAnswer: ${leakAnswer}` };
  }
  const finalAction =
    /The \[Action\] must be (\w+)/.exec(prompt)?.[1] ?? /Next Action: (\w+)/.exec(prompt)?.[1] ?? 'None';
  if (prompt.includes('You are the Verifier')) return { type: 'text', text: 'No issue found.\nVerdict: APPROVE' };
  return { type: 'text', text: `Thought: I will send it.\nAction: ${finalAction}\nAction Input: {"message": "Hello"}` };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-pl-'));
  writePrivacyLensFixture(join(work, 'data'));
  server = await startMockOpenAIServer({ handler, models: ['agent-m', 'judge-m'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliResult> {
  return runCli({
    args,
    env: { HOME: work, CONFIDANT_DATA_DIR: join(work, 'data'), CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const models = () => [
  '--model',
  `openai-compatible:agent-m@${server.baseURL}`,
  '--model',
  `judge=openai-compatible:judge-m@${server.baseURL}`,
];

const readSummary = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;

describe('confidant run privacylens over HTTP (our own cases in the upstream format)', () => {
  it('a leaking agent has LR = 1 and a discreet one LR = 0, with helpfulness from the judge', async () => {
    leakAnswer = 'Yes';
    const leaking = await cli([
      'run',
      'privacylens',
      '--split',
      'all',
      '--limit',
      '3',
      ...models(),
      '--out',
      join(work, 'leak'),
    ]);
    expect(leaking.code, leaking.stderr).toBe(0);
    const leaked = readSummary(lastLine(leaking.stdout));
    expect(leaked.metrics.leak_rate).toMatchObject({ value: 1, n: 3, errors: 0, notApplicable: 0 });
    expect(leaked.metrics.helpfulness?.value).toBe(3);
    expect(leaked.metrics.valid_action_rate?.value).toBe(1);

    leakAnswer = 'No';
    const discreet = await cli([
      'run',
      'privacylens',
      '--split',
      'all',
      '--limit',
      '3',
      '--no-cache',
      ...models(),
      '--out',
      join(work, 'safe'),
    ]);
    expect(discreet.code, discreet.stderr).toBe(0);
    expect(readSummary(lastLine(discreet.stdout)).metrics.leak_rate).toMatchObject({ value: 0, n: 3 });
  });

  it('runs a chain defense with one call per role, and the report compares defenses side by side', async () => {
    leakAnswer = 'No';
    const vanilla = await cli([
      'run',
      'privacylens',
      '--split',
      'all',
      '--limit',
      '2',
      ...models(),
      '--out',
      join(work, 'cmp'),
    ]);
    const chain = await cli([
      'run',
      'privacylens',
      '--split',
      'all',
      '--limit',
      '2',
      '--defense',
      'ppe',
      '--defense',
      'chain:G>V>R',
      ...models(),
      '--out',
      join(work, 'cmp'),
    ]);
    expect(chain.code, chain.stderr).toBe(0);
    const summary = readSummary(lastLine(chain.stdout));
    for (const role of ['generator', 'verifier', 'refiner']) expect(summary.usage[role]?.calls).toBe(2);
    expect(summary.usage.agent).toBeUndefined();
    expect(summary.metrics.leak_rate).toMatchObject({ value: 0, n: 2 });

    const report = await cli(['report', lastLine(vanilla.stdout), lastLine(chain.stdout)]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('## Comparison');
    expect(report.stdout).toMatch(
      /\| Run \| LR \(%\) \| Leak@K \(%\) \| Helpfulness \| Helpful \(≥2\) \(%\) \| Calls \| Cost \(USD\) \|/,
    );
    expect(report.stdout).toContain('[privacy-prompt, chain:G&gt;V&gt;R]');
  });

  it('rejects a plan without a judge model, naming the flag that fixes it', async () => {
    const result = await cli([
      'run',
      'privacylens',
      '--limit',
      '1',
      '--model',
      `openai-compatible:agent-m@${server.baseURL}`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/judge=<provider:model>/);
  });
});
