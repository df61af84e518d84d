import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChecksumMismatchError, ConfidantError } from '../spec/errors.js';
import { findCatalogEntry } from './dataset-catalog.js';
import { type PullProgress, pullDataset, verifyDataset } from './pull-dataset.js';

const shared = resolve(import.meta.dirname, '../../../shared/datasets');
const confaide = findCatalogEntry('confaide');

/** Serves the shared ConfAIde files under their upstream paths; `corrupt` paths get altered bytes. */
function startServer(): Promise<{ server: Server; baseUrl: string; requests: string[]; corrupt: Set<string> }> {
  const requests: string[] = [];
  const corrupt = new Set<string>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').replace(/^\/+/, '');
    requests.push(path);
    const file = confaide.files.find((candidate) => candidate.upstreamPath === path);
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    const bytes = readFileSync(join(shared, 'confaide', file.path));
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
      name: 'confaide',
      dataDir,
      baseUrl: context.baseUrl,
      onProgress: (event) => progress.push(event),
    });
    expect(first.dir).toBe(join(dataDir, 'confaide'));
    expect(first.files.map((file) => file.status)).toEqual(confaide.files.map(() => 'downloaded'));
    expect(first.files.find((file) => file.path === 'tier_3.txt')?.bytes).toBe(284253);
    expect(readFileSync(join(dataDir, 'confaide', 'tier_4.txt'))).toEqual(
      readFileSync(join(shared, 'confaide', 'tier_4.txt')),
    );
    expect(existsSync(join(dataDir, 'confaide.partial'))).toBe(false);
    expect(progress.filter((event) => event.status === 'downloaded')).toHaveLength(confaide.files.length);
    expect((await verifyDataset({ name: 'confaide', dataDir })).ok).toBe(true);

    // A second pull downloads nothing except a file that was damaged in between.
    writeFileSync(join(dataDir, 'confaide', 'tier_1.txt'), 'damaged');
    context.requests.length = 0;
    const second = await pullDataset({ name: 'confaide', dataDir, baseUrl: context.baseUrl });
    expect(context.requests).toEqual(['benchmark/tier_1.txt']);
    expect(second.files.filter((file) => file.status === 'downloaded').map((file) => file.path)).toEqual([
      'tier_1.txt',
    ]);
    expect((await verifyDataset({ name: 'confaide', dataDir })).ok).toBe(true);
  });

  it('rejects a corrupted download without writing it into the dataset directory', async () => {
    const dataDir = freshDataDir();
    context.corrupt.add('benchmark/tier_2a.txt');
    let caught: unknown;
    try {
      await pullDataset({ name: 'confaide', dataDir, baseUrl: context.baseUrl });
    } catch (error) {
      caught = error;
    } finally {
      context.corrupt.clear();
    }
    expect(caught).toBeInstanceOf(ChecksumMismatchError);
    const message = (caught as Error).message;
    expect(message).toContain('confaide/tier_2a.txt');
    expect(message).toContain('a869099fab404cde9dd50f23c20668063021afa8f080e190b348a5a4da14b979');
    const tampered = Buffer.concat([readFileSync(join(shared, 'confaide', 'tier_2a.txt')), Buffer.from('tampered')]);
    const { createHash } = await import('node:crypto');
    expect(message).toContain(createHash('sha256').update(tampered).digest('hex'));
    expect(existsSync(join(dataDir, 'confaide', 'tier_2a.txt'))).toBe(false);
    // The rejected bytes are kept aside for inspection, outside the dataset directory.
    expect(readFileSync(join(dataDir, 'confaide.partial', 'tier_2a.txt'))).toEqual(tampered);
    // Files before it in catalogue order were verified and kept; nothing after it was fetched.
    expect(existsSync(join(dataDir, 'confaide', 'tier_1_labels.txt'))).toBe(true);
    expect(existsSync(join(dataDir, 'confaide', 'tier_2b.txt'))).toBe(false);

    const verified = await verifyDataset({ name: 'confaide', dataDir });
    expect(verified.ok).toBe(false);
    expect(verified.files.find((file) => file.path === 'tier_2a.txt')?.status).toBe('missing');
    expect(verified.files.find((file) => file.path === 'tier_1.txt')?.status).toBe('ok');
  });

  it('reports a mismatching local file', async () => {
    const dataDir = freshDataDir();
    await pullDataset({ name: 'confaide', dataDir, baseUrl: context.baseUrl });
    writeFileSync(join(dataDir, 'confaide', 'LICENSE'), 'not the licence');
    const verified = await verifyDataset({ name: 'confaide', dataDir });
    const licence = verified.files.find((file) => file.path === 'LICENSE');
    expect(licence?.status).toBe('mismatch');
    expect(licence?.actual).not.toBe(licence?.expected);
  });

  it('turns an HTTP error into a user error naming the URL', async () => {
    const dataDir = freshDataDir();
    const baseUrl = `${context.baseUrl}/missing`;
    let caught: unknown;
    try {
      await pullDataset({ name: 'confaide', dataDir, baseUrl });
    } catch (error) {
      caught = error;
    }
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
    expect((caught as Error).message).toBe(`could not download ${baseUrl}/benchmark/tier_1.txt: HTTP 404`);
  });

  it('uses the injected fetch', async () => {
    const dataDir = freshDataDir();
    const urls: string[] = [];
    const result = await pullDataset({
      name: 'confaide',
      dataDir,
      fetch: async (url) => {
        urls.push(url);
        const file = confaide.files.find((candidate) => candidate.url === url);
        return new Response(file ? readFileSync(join(shared, 'confaide', file.path)) : 'missing', {
          status: file ? 200 : 404,
        });
      },
    });
    expect(urls).toEqual(confaide.files.map((file) => file.url));
    expect(result.files.every((file) => file.status === 'downloaded')).toBe(true);
  });
});
