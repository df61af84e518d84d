import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';
import { expectClean } from './expect-clean.js';
import { launchChromium, watchedPage } from './launch-chromium.js';
import { type ViewServers, viewServers } from './view-servers.js';

/** Markup every agent reply starts with: shown as text, it runs nothing. */
const MARKUP = '"><img src=x onerror=alert(1)> </script><script>alert(2)</script> javascript:alert(3)';

let work: string;
let server: MockOpenAIServer;
let views: ViewServers;
let browser: Browser;
let context: BrowserContext;
const urls: Record<string, string> = {};

async function cli(args: string[]): Promise<string> {
  const result = await runCliInProcess({ args: [...args, '--no-cache'], cwd: work });
  expect(result.code, result.stderr).toBe(0);
  return lastLine(result.stdout);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-confaide-view-'));
  views = viewServers({ cwd: work });
  // Agents over the loopback server, each reply starting with the markup: `teller` answers by
  // repeating the story (so a free response names the subject) and says no to the control
  // question (correct), `rater` gives a tier-1 rating.
  server = await startMockOpenAIServer({
    models: ['teller', 'rater'],
    handler: (body) => {
      const prompt = lastUserText(body);
      const answer =
        body.model === 'rater'
          ? 'Very sensitive'
          : prompt.includes('Reply with yes or no.')
            ? 'No, it is not.'
            : prompt.replaceAll('Answer:', '');
      return { type: 'text', text: `${MARKUP}\nAnswer: ${answer}` };
    },
  });
  const agent = (id: string) => ['--model', `openai-compatible:${id}@${server.baseURL}`];
  // Our own ConfAIde files in the upstream format (test/fixtures/datasets), so this runs on any clone.
  const data = ['--data-dir', fixtureDataDir];
  const tier3 = await cli([
    ...['run', 'confaide', '--tier', '3', '--limit', '3', '--questions', 'free-response,control'],
    ...[
      ...data,
      ...agent('teller'),
      '--model',
      'judge=mock:judge-leak',
      '--set',
      'tier3Proxy=on',
      '--out',
      join(work, 't3'),
    ],
  ]);
  const tier1 = await cli([
    'run',
    'confaide',
    '--tier',
    '1',
    '--limit',
    '2',
    ...data,
    ...agent('rater'),
    '--out',
    join(work, 't1'),
  ]);
  urls.t3 = await views.start(tier3);
  urls.t1 = await views.start(tier1);
  browser = await launchChromium();
  context = await browser.newContext();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await views?.stopAll();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('confidant view on a ConfAIde run', () => {
  it('tier 3: filter to leaked free responses, open one, see the subject highlighted and the proxy judge exchange', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(`${urls.t3}#/samples`);
    await page.getByText('6 of 6 samples').waitFor();
    await page.locator('select[name=status]').selectOption('leaked');
    await page.getByText('3 of 6 samples').waitFor();
    const variants = await page.locator('table.samples tbody tr td:nth-child(3)').allTextContents();
    expect(variants).toEqual(['question=free-response', 'question=free-response', 'question=free-response']);
    await page.locator('input[name=scenario]').fill('t3-s000');
    await page.locator('input[name=scenario]').dispatchEvent('change');
    await page.getByText('1 of 6 samples').waitFor();
    await page.locator('a.sample-link').first().click();
    await page.getByRole('heading', { name: 'Scores' }).waitFor();
    // The first fixture story's subject is Nora: the string check and the proxy judge both name her.
    expect(await page.locator('table q').allTextContents()).toContain('Nora');
    expect(await page.locator('main mark.disclosed').first().textContent()).toBe('Nora');
    expect(await page.locator('main').textContent()).toContain(MARKUP);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    await page.locator('section.judges summary').first().click();
    const exchange = page.locator('details.judge-exchange[open]');
    expect(await exchange.locator('h4').allTextContents()).toEqual(['Prompt', 'Raw reply', 'Parsed verdict']);
    expect(await exchange.locator('summary').textContent()).toContain('confaide-fr-proxy@1');
    expect(await exchange.locator('pre').nth(1).textContent()).toBe('Answer: Nora');
    expectClean(watch);
    await page.close();
  });

  it('tier 1: a sample shows the rating the agent gave and the exchange it was read from', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(`${urls.t1}#/samples?status=compliant`);
    await page.getByText('2 of 2 samples').waitFor();
    await page.locator('a.sample-link').first().click();
    await page.getByRole('heading', { name: 'Scores' }).waitFor();
    const rating = page.locator('table tr', { hasText: 'confaide-rating@1' });
    expect(await rating.locator('td').nth(2).textContent()).toBe('pass');
    expect(await rating.locator('td').nth(3).textContent()).toBe('4');
    const call = page.locator('.event.model').first();
    expect(await call.textContent()).toContain('agent · openai-compatible:rater');
    expect(await call.locator('pre').last().textContent()).toBe(`${MARKUP}\nAnswer: Very sensitive`);
    expect(await page.locator('main img').count()).toBe(0);
    expectClean(watch);
    await page.close();
  });
});
