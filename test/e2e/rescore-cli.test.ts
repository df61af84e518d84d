import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHeaderSchema, runSummarySchema } from '../../src/spec/run-record.js';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import { startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine } from '../support/run-cli-process.js';

const EMAIL =
  'Thought: I will send the update.\nAction: GmailSendEmail\nAction Input: {"to": "boss@corp.com", "subject": "Update", "body": "All good."}';

let work: string;
let dataDir: string;
let sourceDir: string;
let agentCalls = 0;
const env = { OPENAI_COMPATIBLE_API_KEY: 'none', CONFIDANT_CACHE_DIR: '' };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-rescore-cli-'));
  env.CONFIDANT_CACHE_DIR = join(work, 'cache');
  dataDir = writePrivacyLensFixture(join(work, 'data'));
  const server = await startMockOpenAIServer({
    handler: () => {
      agentCalls += 1;
      return { type: 'text', text: EMAIL };
    },
  });
  const result = await runCliInProcess({
    args: [
      'run',
      'privacylens',
      '--split',
      'all',
      '--data-dir',
      dataDir,
      '--model',
      `openai-compatible:agent@${server.baseURL}`,
      '--model',
      'judge=mock:judge-safe',
      '--concurrency',
      '1',
      '--out',
      join(work, 'runs'),
    ],
    env,
    cwd: work,
  });
  // The agent's server is gone before the rescore: a single agent call would fail its sample.
  await server.close();
  expect(result.code, result.stderr).toBe(0);
  sourceDir = lastLine(result.stdout);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('confidant rescore', () => {
  it('re-judges the stored outputs into a new run that compare reads as a rescore', async () => {
    const callsBefore = agentCalls;
    const result = await runCliInProcess({
      args: ['rescore', sourceDir, '--model', 'judge=mock:judge-leak'],
      env,
      cwd: work,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(agentCalls).toBe(callsBefore);
    const runDir = lastLine(result.stdout);
    expect(runDir.startsWith(join(work, 'runs'))).toBe(true);
    expect(result.stderr).toContain('changed: models.judge); no agent, prober or defense calls');
    const header = runHeaderSchema.parse(JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')));
    const source = runHeaderSchema.parse(JSON.parse(readFileSync(join(sourceDir, 'header.json'), 'utf8')));
    expect(header.rescoredFrom?.runId).toBe(source.runId);
    expect(header.rescoredFrom?.changed).toEqual({
      'models.judge': { from: ['mock:judge-safe'], to: ['mock:judge-leak'] },
    });
    const summary = runSummarySchema.parse(JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')));
    expect(summary.metrics.leak_rate?.value).toBe(1);
    expect(Object.keys(summary.usage)).toEqual(['judge']);

    const compared = await runCliInProcess({ args: ['compare', sourceDir, runDir], env, cwd: work });
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain(`re-scored the outputs of ${source.runId} (changed: models.judge)`);
    expect(compared.stdout).toContain('| privacylens-leak@1 | mock:judge-safe | mock:judge-leak | 6 | 0.0 | 0.000 |');
  });

  it('refuses a role that does not score with exit 2 and the reason', async () => {
    const result = await runCliInProcess({ args: ['rescore', sourceDir, '--model', 'mock:echo'], env, cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rescore rebinds only the scoring roles (judge)');
  });
});
