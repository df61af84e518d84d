import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { SECRET, writeViewFixtureRuns, XSS_PAYLOADS } from '../support/view-fixture-runs.js';
import { expectClean } from './expect-clean.js';
import { launchChromium, watchedPage } from './launch-chromium.js';
import { type ViewServers, viewServers } from './view-servers.js';

let work: string;
let browser: Browser;
let context: BrowserContext;
let url: string;
let views: ViewServers;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-view-'));
  await writeViewFixtureRuns(work);
  views = viewServers({ cwd: work });
  url = await views.start(join(work, 'runs'));
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await browser?.close();
  await views?.stopAll();
  rmSync(work, { recursive: true, force: true });
});

async function openSample(page: Page, id: string) {
  await page.goto(`${url}#/sample/0/${encodeURIComponent(id)}`);
  await page.getByText('Transcript (4 events)').waitFor();
}

describe('confidant view in Chromium', () => {
  it('filters to leaked samples, opens one, shows the disclosed span and the judge exchange', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(url);
    await page.getByRole('heading', { name: 'baseline (mock:echo)' }).waitFor();
    await page.getByRole('link', { name: 'Samples' }).click();
    await page.locator('select[name=status]').selectOption('leaked');
    await page.getByText('6 of 8 samples').waitFor();
    await page.locator('a.sample-link').first().click();
    await page.getByText('Transcript (4 events)').waitFor();
    expect(await page.locator('mark.disclosed').first().textContent()).toBe(SECRET);
    await page.getByText('Judge exchange: leak@1 (mock:judge) → fail').click();
    await page.getByText(`Answer: yes — it says "${SECRET}"`).waitFor();
    expect(await page.locator('details.judge-exchange[open] h4').allTextContents()).toEqual([
      'Prompt',
      'Raw reply',
      'Parsed verdict',
    ]);
    expectClean(watch);
    await page.close();
  });

  it('filters by defense: the runs with that defense, their samples', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(`${url}#/samples?status=leaked`);
    await page.getByText('6 of 8 samples').waitFor();
    expect(await page.locator('select[name=defense] option').allTextContents()).toEqual([
      'all',
      'none',
      'privacy-prompt',
    ]);
    await page.locator('select[name=defense]').selectOption('privacy-prompt');
    await page.getByText('2 of 8 samples').waitFor();
    expect(await page.locator('select[name=run] option').allTextContents()).toEqual([
      expect.stringMatching(/^guarded .*\[privacy-prompt\]\)$/),
    ]);
    await page.locator('select[name=defense]').selectOption('none');
    await page.getByText('6 of 8 samples').waitFor();
    expectClean(watch);
    await page.close();
  });

  it('searches the full text of transcripts', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(`${url}#/samples?q=${encodeURIComponent('xss-img')}`);
    await page.getByText('2 of 8 samples').waitFor();
    expect(await page.locator('a.sample-link').allTextContents()).toEqual(['s1#e1', 's5#e1']);
    expectClean(watch);
    await page.close();
  });

  it('compares the two runs and opens a flipped sample side by side', async () => {
    const { page, watch } = await watchedPage(context);
    await page.goto(`${url}#/compare`);
    await page.getByText('Flipped samples (4)').waitFor();
    expect(await page.locator('a.flip-link').allTextContents()).toEqual(['s2#e1', 's3#e1', 's4#e1', 's5#e1']);
    await page.locator('a.flip-link').first().click();
    await page.getByRole('heading', { name: 'A: baseline' }).waitFor();
    await page.getByRole('heading', { name: 'B: guarded' }).waitFor();
    expect(await page.locator('.side .verdict').allTextContents()).toEqual(['fail', 'pass']);
    expectClean(watch);
    await page.close();
  });

  it('shows every XSS probe literally and runs none of it', async () => {
    const { page, watch } = await watchedPage(context);
    for (let index = 0; index < XSS_PAYLOADS.length; index += 1) {
      await openSample(page, `s${index}#e1`);
      const payload = XSS_PAYLOADS[index] ?? '';
      expect(await page.locator('.event.model pre').last().textContent()).toContain(payload);
      expect(await page.locator('main img, main script, main a[href^="javascript:"]').count()).toBe(0);
    }
    expect(await page.evaluate('document.querySelectorAll(\'a[href^="javascript:"], img\').length')).toBe(0);
    expectClean(watch);
    await page.close();
  });

  it('answers only its own host: a rebinding Host header is refused', async () => {
    // fetch() may not set Host; a plain request can, as a rebinding page's browser would send it.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = get(`${url}api/runs/0/index`, { headers: { host: 'evil.example:80' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
    });
    expect(status).toBe(421);
    const ok = await fetch(`${url}api/runs/0/index`);
    expect(((await ok.json()) as unknown[]).length).toBe(8);
  });
});

describe('the HTML report file in Chromium', () => {
  it('opens with the network disabled, requests nothing, and shows a highlighted leaked sample', async () => {
    const out = join(work, 'report.html');
    const result = await runCliInProcess({
      args: ['report', join(work, 'runs'), '--format', 'html', '--out', out],
      cwd: work,
    });
    expect(result.code, result.stderr).toBe(0);
    const offline = await browser.newContext({ offline: true });
    const { page, watch } = await watchedPage(offline);
    await page.goto(`file://${out}#/samples?status=leaked`);
    await page.getByText('6 of 8 samples').waitFor();
    await page.locator('a.sample-link').nth(2).click();
    await page.getByText('Transcript (4 events)').waitFor();
    expect(await page.locator('mark.disclosed').first().textContent()).toBe(SECRET);
    expect(await page.locator('main').textContent()).toContain(XSS_PAYLOADS[2]);
    await page.goto(`file://${out}#/compare`);
    await page.getByText('Flipped samples (4)').waitFor();
    expect(watch.requests.filter((request) => !request.startsWith('file://'))).toEqual([]);
    expectClean(watch);
    await offline.close();
  });
});
