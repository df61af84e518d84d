import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../test/support/test-data.js';
import { ChecksumMismatchError, ConfidantError, DatasetNotFoundError } from '../spec/errors.js';
import { FIXTURE_FILES, fixtureCatalogEntry, writeFixtureCopy } from './__fixtures__/fixture-catalog.js';
import { findCatalogEntry } from './dataset-catalog.js';
import { type PullProgress, pullDataset, verifyDataset } from './pull-dataset.js';

const fixture = fixtureCatalogEntry();
const upstreamConfaide = upstreamDataset('confaide');

/** Serves the fixture files under their upstream paths; `corrupt` paths get altered bytes. */
function startServer(): Promise<{ server: Server; baseUrl: string; requests: string[]; corrupt: Set<string> }> {
  const requests: string[] = [];
  const corrupt = new Set<string>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').replace(/^\/+/, '');
    requests.push(path);
    const file = Object.values(FIXTURE_FILES).find((candidate) => candidate.upstreamPath === path);
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    const bytes = Buffer.from(file.text);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(corrupt.has(path) ? Buffer.concat([bytes, Buffer.from('tampered')]) : bytes);
  });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      done({ server, baseUrl: `http://127.0.0.1:${port}`, requests, corrupt });
    });
  });
}

describe('pullDataset against a loopback server', () => {
  let context: Awaited<ReturnType<typeof startServer>>;
  const roots: string[] = [];
  const freshDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pull-'));
    roots.push(dir);
    return dir;
  };

  beforeAll(async () => {
    context = await startServer();
  });
  afterAll(async () => {
    await new Promise((done) => context.server.close(done));
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('downloads and verifies every file, then skips files already present', async () => {
    const dataDir = freshDataDir();
    const progress: PullProgress[] = [];
    const first = await pullDataset({
      name: 'fixture',
      entry: fixture,
      dataDir,
      baseUrl: context.baseUrl,
      onProgress: (event) => progress.push(event),
    });
    expect(first.dir).toBe(join(dataDir, 'fixture'));
    expect(first.files.map((file) => file.status)).toEqual(fixture.files.map(() => 'downloaded'));
    expect(first.files.find((file) => file.path === 'notes.txt')?.bytes).toBe(
      Buffer.byteLength(FIXTURE_FILES['notes.txt']!.text),
    );
    expect(readFileSync(join(dataDir, 'fixture', 'sub', 'table.json'), 'utf8')).toBe(
      FIXTURE_FILES['sub/table.json']!.text,
    );
    expect(existsSync(join(dataDir, 'fixture.partial'))).toBe(false);
    expect(progress.filter((event) => event.status === 'downloaded')).toHaveLength(fixture.files.length);
    expect((await verifyDataset({ name: 'fixture', entry: fixture, dataDir })).ok).toBe(true);

    // A second pull downloads nothing except a file that was damaged in between.
    writeFileSync(join(dataDir, 'fixture', 'notes.txt'), 'damaged');
    context.requests.length = 0;
    const second = await pullDataset({ name: 'fixture', entry: fixture, dataDir, baseUrl: context.baseUrl });
    expect(context.requests).toEqual(['data/notes.txt']);
    expect(second.files.filter((file) => file.status === 'downloaded').map((file) => file.path)).toEqual(['notes.txt']);
    expect((await verifyDataset({ name: 'fixture', entry: fixture, dataDir })).ok).toBe(true);
  });

  it('rejects a corrupted download without writing it into the dataset directory', async () => {
    const dataDir = freshDataDir();
    context.corrupt.add('data/sub/table.json');
    let caught: unknown;
    try {
      await pullDataset({ name: 'fixture', entry: fixture, dataDir, baseUrl: context.baseUrl });
    } catch (error) {
      caught = error;
    } finally {
      context.corrupt.clear();
    }
    expect(caught).toBeInstanceOf(ChecksumMismatchError);
    const message = (caught as Error).message;
    expect(message).toContain('fixture/sub/table.json');
    const expected = fixture.files.find((file) => file.path === 'sub/table.json')?.sha256 ?? '';
    expect(message).toContain(expected);
    const tampered = Buffer.from(`${FIXTURE_FILES['sub/table.json']!.text}tampered`);
    expect(message).toContain(createHash('sha256').update(tampered).digest('hex'));
    expect(existsSync(join(dataDir, 'fixture', 'sub', 'table.json'))).toBe(false);
    // The rejected bytes are kept aside for inspection, outside the dataset directory.
    expect(readFileSync(join(dataDir, 'fixture.partial', 'sub', 'table.json'))).toEqual(tampered);
    // Files before it in catalogue order were verified and kept; nothing after it was fetched.
    expect(existsSync(join(dataDir, 'fixture', 'notes.txt'))).toBe(true);
    expect(existsSync(join(dataDir, 'fixture', 'LICENSE'))).toBe(false);

    const verified = await verifyDataset({ name: 'fixture', entry: fixture, dataDir });
    expect(verified.ok).toBe(false);
    expect(verified.files.map((file) => [file.path, file.status])).toEqual([
      ['notes.txt', 'ok'],
      ['sub/table.json', 'missing'],
      ['LICENSE', 'missing'],
    ]);
  });

  it('verify reports every problem at once: altered, empty, missing, a folder and a dangling symlink', async () => {
    const dataDir = freshDataDir();
    await pullDataset({ name: 'fixture', entry: fixture, dataDir, baseUrl: context.baseUrl });
    writeFileSync(join(dataDir, 'fixture', 'LICENSE'), 'not the licence');
    let verified = await verifyDataset({ name: 'fixture', entry: fixture, dataDir });
    const licence = verified.files.find((file) => file.path === 'LICENSE');
    expect(licence?.status).toBe('mismatch');
    expect(licence?.actual).not.toBe(licence?.expected);
    expect(licence?.detail).toMatch(/^differs from the catalogue \(sha256 [0-9a-f]{64}, expected [0-9a-f]{64}\)$/);

    writeFileSync(join(dataDir, 'fixture', 'notes.txt'), '');
    rmSync(join(dataDir, 'fixture', 'sub'), { recursive: true });
    mkdirSync(join(dataDir, 'fixture', 'sub', 'table.json'), { recursive: true });
    verified = await verifyDataset({ name: 'fixture', entry: fixture, dataDir });
    expect(verified.files.map((file) => [file.path, file.status, file.detail.split(' (')[0]])).toEqual([
      ['notes.txt', 'mismatch', 'is empty'],
      ['sub/table.json', 'unusable', 'is a directory, not a file'],
      ['LICENSE', 'mismatch', 'differs from the catalogue'],
    ]);

    rmSync(join(dataDir, 'fixture', 'sub'), { recursive: true });
    mkdirSync(join(dataDir, 'fixture', 'sub'));
    symlinkSync(join(dataDir, 'nowhere.json'), join(dataDir, 'fixture', 'sub', 'table.json'));
    rmSync(join(dataDir, 'fixture', 'LICENSE'));
    verified = await verifyDataset({ name: 'fixture', entry: fixture, dataDir });
    expect(verified.files.map((file) => [file.path, file.status, file.detail])).toEqual([
      ['notes.txt', 'mismatch', expect.stringMatching(/^is empty/)],
      ['sub/table.json', 'unusable', 'is a symlink to nothing'],
      ['LICENSE', 'missing', 'is missing'],
    ]);
    expect(verified.ok).toBe(false);
  });

  it('turns an HTTP error into a user error naming the URL', async () => {
    const dataDir = freshDataDir();
    const baseUrl = `${context.baseUrl}/missing`;
    let caught: unknown;
    try {
      await pullDataset({ name: 'fixture', entry: fixture, dataDir, baseUrl });
    } catch (error) {
      caught = error;
    }
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
    expect((caught as Error).message).toBe(`could not download ${baseUrl}/data/notes.txt: HTTP 404`);
  });

  it('a network failure names the offline route', async () => {
    const dataDir = freshDataDir();
    const failing = pullDataset({
      name: 'fixture',
      entry: fixture,
      dataDir,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(failing).rejects.toThrow(
      /could not download https:\/\/example\.invalid\/data\/notes\.txt: fetch failed\. .*`confidant data pull fixture --from <dir\|file\.tar\.gz>`/,
    );
  });

  it('refuses to download a dataset that may not be downloaded, saying how to get it', async () => {
    const dataDir = freshDataDir();
    const local = fixtureCatalogEntry({ downloadable: false });
    await expect(pullDataset({ name: 'fixture', entry: local, dataDir })).rejects.toThrow(DatasetNotFoundError);
    await expect(pullDataset({ name: 'pacbench', dataDir })).rejects.toThrow(
      /dataset 'pacbench' cannot be downloaded: .*no licence.*confidant data pull pacbench --from/,
    );
    expect(existsSync(join(dataDir, 'pacbench'))).toBe(false);
  });

  it('uses the injected fetch', async () => {
    const dataDir = freshDataDir();
    const urls: string[] = [];
    const copy = writeFixtureCopy({ root: freshDataDir(), layout: 'upstream' });
    const result = await pullDataset({
      name: 'fixture',
      entry: fixture,
      dataDir,
      fetch: async (url) => {
        urls.push(url);
        const file = fixture.files.find((candidate) => candidate.url === url);
        return new Response(file ? readFileSync(join(copy, file.upstreamPath)) : 'missing', {
          status: file ? 200 : 404,
        });
      },
    });
    expect(urls).toEqual(fixture.files.map((file) => file.url));
    expect(result.files.every((file) => file.status === 'downloaded')).toBe(true);
  });
});

describe('pullDataset of the real ConfAIde catalogue', upstreamConfaide.testOptions, () => {
  const confaide = findCatalogEntry('confaide');
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('downloads the upstream bytes through the catalogue URLs and verifies them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confidant-pull-real-'));
    roots.push(dataDir);
    const urls: string[] = [];
    const result = await pullDataset({
      name: 'confaide',
      dataDir,
      fetch: async (url) => {
        urls.push(url);
        const file = confaide.files.find((candidate) => candidate.url === url);
        return new Response(file ? readFileSync(join(upstreamConfaide.dir, file.path)) : 'missing', {
          status: file ? 200 : 404,
        });
      },
    });
    expect(urls).toEqual(confaide.files.map((file) => file.url));
    expect(result.files.find((file) => file.path === 'tier_3.txt')?.bytes).toBe(284253);
    expect((await verifyDataset({ name: 'confaide', dataDir })).ok).toBe(true);
  });
});
