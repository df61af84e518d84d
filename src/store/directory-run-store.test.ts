import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { StoreFormatError } from '../spec/errors.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { runStoreContract, testSampleRecord } from './run-store.contract.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

let counter = 0;
runStoreContract('DirectoryRunStore', async (options) => {
  counter += 1;
  const directory = join(root, `run-${counter}`);
  await mkdir(directory);
  return new DirectoryRunStore(directory, options);
});

async function freshStore(): Promise<{ store: DirectoryRunStore; samplesFile: string }> {
  const directory = join(root, 'run');
  await mkdir(directory);
  const store = new DirectoryRunStore(directory);
  await store.writeHeader(testRunHeader());
  return { store, samplesFile: join(directory, 'samples.jsonl') };
}

const line = (id: string, attempt = 1) => `${JSON.stringify(testSampleRecord({ id, attempt }))}\n`;

describe('DirectoryRunStore files', () => {
  it('writes one JSON line per record and pretty JSON for header and summary, leaving no temp files', async () => {
    const { store, samplesFile } = await freshStore();
    await store.appendSample(testSampleRecord({ id: 'a#e1' }));
    await store.appendSample(testSampleRecord({ id: 'b#e1' }));
    const text = await readFile(samplesFile, 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text.split('\n')[1] ?? '').id).toBe('b#e1');
    expect(JSON.parse(await readFile(join(store.location, 'header.json'), 'utf8')).runId).toBe('test-run');
    expect((await readdir(store.location)).sort()).toEqual(['header.json', 'samples.jsonl']);
  });

  it('without events, checks every record but not its events; a full read checks them too', async () => {
    const { store, samplesFile } = await freshStore();
    const badEvent = { ...testSampleRecord({ id: 'b#e1' }), events: [{ id: 'e1', type: 'model-call', time: 3 }] };
    await writeFile(samplesFile, `${line('a#e1')}${JSON.stringify(badEvent)}\n`);
    expect((await store.readSamples({ events: false })).map((record) => [record.id, record.events])).toEqual([
      ['a#e1', []],
      ['b#e1', []],
    ]);
    const seen: string[] = [];
    await store.scanSamples({ events: false }, (record) => seen.push(record.id));
    expect(seen).toEqual(['a#e1', 'b#e1']);
    await expect(store.readSamples()).rejects.toThrow(
      /malformed record in .* at line 2: not a sample record at events\.0/,
    );
    const { events: _events, ...noEvents } = testSampleRecord({ id: 'c#e1' });
    await writeFile(samplesFile, `${line('a#e1')}${JSON.stringify(noEvents)}\n${line('d#e1')}`);
    await expect(store.readSamples({ events: false })).rejects.toThrow(/at line 2: not a sample record at events: /);
  });

  it('streams records longer than its read chunks, multi-byte text across chunk edges included', async () => {
    const { store, samplesFile } = await freshStore();
    // 3 MB of multi-byte text: lines cross the reader's 1 MB chunks at arbitrary byte offsets.
    const big = testSampleRecord({ id: 'big#e1', output: { text: 'é'.repeat(1_500_000) } });
    await writeFile(samplesFile, `${line('a#e1')}${JSON.stringify(big)}\n${line('c#e1')}${line('a#e1', 2)}`);
    const records = await store.readSamples();
    expect(records.map((record) => [record.id, record.attempt])).toEqual([
      ['a#e1', 2],
      ['big#e1', 1],
      ['c#e1', 1],
    ]);
    expect(records[1]?.output).toEqual({ text: 'é'.repeat(1_500_000) });
  });

  it('ignores a torn trailing line when reading', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}${line('b#e1').slice(0, 40)}`);
    expect((await store.readSamples()).map((record) => record.id)).toEqual(['a#e1']);
  });

  it('keeps a final record that only lacks its newline', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}${line('b#e1').trimEnd()}`);
    expect((await store.readSamples()).map((record) => record.id)).toEqual(['a#e1', 'b#e1']);
  });

  it('drops a torn fragment before the next append, so new records never glue onto it', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}{"id":"b#e1","scen`);
    await store.appendSample(testSampleRecord({ id: 'c#e1' }));
    expect(await readFile(samplesFile, 'utf8')).toBe(`${line('a#e1')}${line('c#e1')}`);
    expect((await store.readSamples()).map((record) => record.id)).toEqual(['a#e1', 'c#e1']);
  });

  it('completes a whole final record that lacks its newline before the next append', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}${line('b#e1').trimEnd()}`);
    await store.appendSample(testSampleRecord({ id: 'c#e1' }));
    expect(await readFile(samplesFile, 'utf8')).toBe(`${line('a#e1')}${line('b#e1')}${line('c#e1')}`);
  });

  it('group-commits appends made while a write is in flight: whole lines, in call order, each append resolved', async () => {
    const { store, samplesFile } = await freshStore();
    const ids = Array.from({ length: 40 }, (_, index) => `s${index}#e1`);
    // The torn fragment is repaired once, before the first batch.
    await writeFile(samplesFile, `${line('a#e1')}{"id":"torn`);
    await Promise.all(ids.map((id) => store.appendSample(testSampleRecord({ id }))));
    expect(await readFile(samplesFile, 'utf8')).toBe([line('a#e1'), ...ids.map((id) => line(id))].join(''));
    await store.appendSample(testSampleRecord({ id: 'late#e1' }));
    expect((await store.readSamples()).map((record) => record.id)).toEqual(['a#e1', ...ids, 'late#e1']);
  });

  it('a failed batch rejects its appends, and the store appends again once the directory is back', async () => {
    const { store, samplesFile } = await freshStore();
    await store.appendSample(testSampleRecord({ id: 'a#e1' }));
    const header = await readFile(join(store.location, 'header.json'), 'utf8');
    await rm(store.location, { recursive: true, force: true });
    // Wait for the idle store to close its handle, so the next append reopens the (missing) file.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(store.appendSample(testSampleRecord({ id: 'b#e1' }))).rejects.toThrow();
    await mkdir(store.location, { recursive: true });
    await writeFile(join(store.location, 'header.json'), header);
    await store.appendSample(testSampleRecord({ id: 'c#e1' }));
    expect(await readFile(samplesFile, 'utf8')).toBe(line('c#e1'));
  });

  it('rejects a malformed middle line with a StoreFormatError naming the file and line', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}{not json}\n${line('c#e1')}`);
    const failure = store.readSamples();
    await expect(failure).rejects.toBeInstanceOf(StoreFormatError);
    await expect(failure).rejects.toThrow(`malformed record in ${samplesFile} at line 2: not JSON`);
  });

  it('rejects a complete line that is JSON but not a record, naming the field', async () => {
    const { store, samplesFile } = await freshStore();
    await writeFile(samplesFile, `${line('a#e1')}{"id":"b#e1"}\n`);
    await expect(store.readSamples()).rejects.toThrow(/at line 2: not a sample record at scenarioId/);
  });

  it('names a missing directory as not a run directory', async () => {
    const missing = join(root, 'nowhere');
    const store = new DirectoryRunStore(missing);
    await expect(store.readHeader()).rejects.toThrow(`not a confidant run directory: ${missing} (no header.json)`);
    await expect(store.readSamples()).rejects.toThrow(`not a confidant run directory: ${missing} (no header.json)`);
    await expect(store.readHeader()).rejects.toBeInstanceOf(StoreFormatError);
  });

  it('names a foreign header.json and an unsupported format version', async () => {
    const directory = join(root, 'foreign');
    await mkdir(directory);
    const store = new DirectoryRunStore(directory);
    const file = join(directory, 'header.json');
    await writeFile(file, '{"name": "some other tool"');
    await expect(store.readHeader()).rejects.toThrow(`${file} is not valid JSON`);
    await writeFile(file, JSON.stringify({ ...testRunHeader(), formatVersion: 2 }));
    await expect(store.readHeader()).rejects.toThrow(`${file} has formatVersion 2`);
    await writeFile(file, JSON.stringify({ ...testRunHeader(), planHash: 42 }));
    await expect(store.readHeader()).rejects.toThrow(`${file} does not match the run format`);
  });

  it('rejects a malformed summary.json with the file name', async () => {
    const { store } = await freshStore();
    await writeFile(join(store.location, 'summary.json'), '{"runId": 1}');
    await expect(store.readSummary()).rejects.toThrow(
      `${join(store.location, 'summary.json')} does not match the run format`,
    );
  });

  it('a reader that appends after a peer keeps both records (append mode, no overwrite)', async () => {
    const { store, samplesFile } = await freshStore();
    await store.appendSample(testSampleRecord({ id: 'a#e1' }));
    await appendFile(samplesFile, line('b#e1'));
    await new DirectoryRunStore(store.location).appendSample(testSampleRecord({ id: 'c#e1' }));
    expect((await store.readSamples()).map((record) => record.id)).toEqual(['a#e1', 'b#e1', 'c#e1']);
  });
});

describe('DirectoryRunStore crash safety', () => {
  it('keeps every completed line when the writing process is killed mid-run', async () => {
    const { store } = await freshStore();
    const storeModule = fileURLToPath(new URL('./directory-run-store.ts', import.meta.url));
    const contractModule = fileURLToPath(new URL('./run-store.contract.ts', import.meta.url));
    // The child appends records (with big payloads, so some writes are in flight) until killed.
    const script = `
      const { DirectoryRunStore } = await import(${JSON.stringify(storeModule)});
      const { testSampleRecord } = await import(${JSON.stringify(contractModule)});
      const store = new DirectoryRunStore(${JSON.stringify(store.location)});
      for (let index = 0; index < 5000; index += 1) {
        await store.appendSample(testSampleRecord({ id: 's' + index + '#e1', output: 'x'.repeat(200000) }));
        process.stdout.write('appended ' + (index + 1) + '\\n');
      }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let reported = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const counts = [...chunk.toString().matchAll(/appended (\d+)/g)].map((match) => Number(match[1]));
        reported = Math.max(reported, ...counts);
        if (reported >= 5) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => (reported >= 5 ? resolve() : reject(new Error(`child exited early: ${stderr}`))));
    });
    await exited;
    const records = await store.readSamples();
    expect(records.length).toBeGreaterThanOrEqual(reported);
    expect(records.slice(0, reported).map((record) => record.id)).toEqual(
      Array.from({ length: reported }, (_, index) => `s${index}#e1`),
    );
  });
});
