import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import type { SampleRecord } from '../spec/run-record.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { readLatestRecords } from './read-latest-records.js';
import { encodeRecordLine, MIN_SHARED_LENGTH, RECORD_REFS_KEY, resolveRecordRefs } from './record-line.js';
import { testSampleRecord } from './run-store.contract.js';

const prompt = `Instruction: answer the question and keep the secret. ${'p'.repeat(200)}`;
const answer = `The answer, which repeats in the transcript and the model call. ${'a'.repeat(150)}`;

const decode = (line: string) => resolveRecordRefs(JSON.parse(line));

/** A record shaped like a one-call sample: the prompt twice, the answer three times. */
function sampleLike() {
  return {
    id: 's1',
    input: { messages: [{ role: 'user', content: prompt }] },
    output: { response: answer, stages: [{ role: 'agent', text: answer }] },
    scores: [{ scorer: 'leak@1', verdict: 'pass', explanation: 'short' }],
    events: [
      {
        type: 'model-call',
        request: { messages: [{ role: 'user', content: prompt }] },
        response: { text: answer },
      },
    ],
  };
}

describe('encodeRecordLine', () => {
  it('keeps each long text at its first occurrence and lists the later ones in $refs', () => {
    const record = sampleLike();
    const line = encodeRecordLine(record);
    const stored = JSON.parse(line);
    expect(stored.input.messages[0].content).toBe(prompt);
    expect(stored.output.response).toBe(answer);
    expect(stored.output.stages[0].text).toBe('/output/response');
    expect(stored.events[0].request.messages[0].content).toBe('/input/messages/0/content');
    expect(stored.events[0].response.text).toBe('/output/response');
    expect(stored[RECORD_REFS_KEY]).toEqual([
      '/output/stages/0/text',
      '/events/0/request/messages/0/content',
      '/events/0/response/text',
    ]);
    expect(Object.keys(stored).at(-1)).toBe(RECORD_REFS_KEY);
    expect(line.split(prompt).length - 1).toBe(1);
    expect(line.split(answer).length - 1).toBe(1);
    expect(line.length).toBeLessThan(JSON.stringify(record).length - 2 * answer.length - prompt.length + 200);
  });

  it('round-trips to the same record and leaves the record it was given untouched', () => {
    const record = sampleLike();
    const before = structuredClone(record);
    const line = encodeRecordLine(record);
    expect(record).toEqual(before);
    expect(decode(line)).toEqual(before);
    expect(JSON.stringify(decode(line))).toBe(JSON.stringify(before));
  });

  it('writes a record without a repeated long text exactly as JSON.stringify does', () => {
    const short = 'x'.repeat(MIN_SHARED_LENGTH - 1);
    const record = { id: 'a', output: [short, short, short], other: { text: prompt }, answer };
    const line = encodeRecordLine(record);
    expect(line).toBe(JSON.stringify(record));
    expect(decode(line)).toEqual(record);
  });

  it('needs no escaping: strings that look like pointers and objects that look like references stay data', () => {
    const record = {
      id: 'user-data',
      output: {
        pointer: '/output/real',
        real: prompt,
        lookalike: { $refs: ['/output/pointer'], $ref: '/output/real' },
        copy: prompt,
        nested: [{ '': prompt, 'a/b~c': answer }, answer],
      },
    };
    const line = encodeRecordLine(record);
    expect(JSON.parse(line)[RECORD_REFS_KEY]).toEqual(['/output/copy', '/output/nested/0/', '/output/nested/1']);
    expect(JSON.parse(line).output.nested[1]).toBe('/output/nested/0/a~1b~0c');
    expect(decode(line)).toEqual(record);
  });

  it('copies a container shared by two paths per path, so each place keeps its own texts', () => {
    const shared = { content: prompt, note: answer };
    const record = { id: 'shared', input: { first: answer, messages: [shared] }, events: [{ messages: [shared] }] };
    const line = encodeRecordLine(record);
    const stored = JSON.parse(line);
    expect(stored.input.messages[0]).toEqual({ content: prompt, note: '/input/first' });
    expect(stored.events[0].messages[0]).toEqual({
      content: '/input/messages/0/content',
      note: '/input/first',
    });
    expect(decode(line)).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it('keeps __proto__ keys of parsed user data as data', () => {
    const record = JSON.parse(
      `{"id":"p","output":{"__proto__":${JSON.stringify(prompt)},"again":${JSON.stringify(prompt)},"x":{"__proto__":${JSON.stringify(prompt)}}}}`,
    );
    const line = encodeRecordLine(record);
    expect(JSON.parse(line)[RECORD_REFS_KEY]).toEqual(['/output/again', '/output/x/__proto__']);
    const back = decode(line) as { output: Record<string, unknown> };
    expect(JSON.stringify(back)).toBe(JSON.stringify(record));
    expect(Object.getPrototypeOf(back.output)).toBe(Object.prototype);
  });

  it('does not replace a repeat whose pointer would cost more than the text', () => {
    const text = 'y'.repeat(MIN_SHARED_LENGTH);
    const record = {
      id: 'deep',
      a: text,
      b: {
        c: { d: { e: { f: { g: { h: { iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii: text } } } } } },
      },
    };
    expect(encodeRecordLine(record)).toBe(JSON.stringify(record));
  });

  it('writes what toJSON returns, without looking into it', () => {
    const record = { id: 'd', text: prompt, when: { toJSON: () => prompt }, again: prompt };
    const line = encodeRecordLine(record);
    expect(JSON.parse(line).when).toBe(prompt);
    expect(decode(line)).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it('refuses a record that already has a top-level $refs key', () => {
    expect(() => encodeRecordLine({ [RECORD_REFS_KEY]: [] })).toThrow(TypeError);
  });

  it('fails on a cycle as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = { id: 'c' };
    cyclic.self = cyclic;
    expect(() => encodeRecordLine(cyclic)).toThrow(/circular/i);
  });
});

describe('resolveRecordRefs', () => {
  it('returns a line written without references unchanged, whatever it holds', () => {
    const old = { id: 'old', output: { $ref: '/id', text: '/id' }, events: [] };
    expect(resolveRecordRefs(structuredClone(old))).toEqual(old);
    expect(resolveRecordRefs([1, 2])).toEqual([1, 2]);
    expect(resolveRecordRefs(null)).toBe(null);
  });

  it.each([
    ['not a list', { id: 'x', $refs: '/id' }, /not a list/],
    ['a pointer to nothing', { id: 'x', $refs: ['/missing'] }, /names \/missing, which is not a string/],
    ['a target that is not a string', { id: 'x', n: 1, $refs: ['/n'] }, /names \/n/],
    ['a source that is not there', { id: 'x', t: '/nowhere', $refs: ['/t'] }, /names \/nowhere/],
    ['a reference to a reference', { a: '/b', b: '/a', $refs: ['/a', '/b'] }, /not a stored text/],
    ['an array index out of range', { a: ['x'], t: '/a/1', $refs: ['/t'] }, /names \/a\/1/],
    ['a non-canonical array index', { a: ['x'], t: '/a/00', $refs: ['/t'] }, /names \/a\/00/],
    ['a pointer without a leading slash', { a: 'x', t: 'a', $refs: ['/t'] }, /names a,/],
  ])('rejects %s', (_name, json, message) => {
    expect(() => resolveRecordRefs(json)).toThrow(message);
  });
});

describe('samples.jsonl through the directory store', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'confidant-record-line-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const judged = (id: string): SampleRecord =>
    testSampleRecord({
      id,
      input: { messages: [{ role: 'user', content: prompt }] },
      output: { response: answer },
      scores: [{ scorer: 'judge@1', verdict: 'fail', value: 1, explanation: answer }],
      events: [
        { id: 'e1', time: '2025-01-02T03:04:05.000Z', type: 'sample-start', sampleId: id },
        {
          id: 'e2',
          time: '2025-01-02T03:04:05.000Z',
          type: 'judge-call',
          judge: 'judge@1',
          prompt,
          raw: answer,
          verdict: 'fail',
          modelCallIds: [],
        },
      ],
    });

  async function store(): Promise<{ store: DirectoryRunStore; file: string }> {
    const directory = join(root, 'run');
    await mkdir(directory, { recursive: true });
    const run = new DirectoryRunStore(directory);
    await run.writeHeader(testRunHeader());
    return { store: run, file: join(directory, 'samples.jsonl') };
  }

  it('stores each text once and reads back whole records, with and without events', async () => {
    const { store: run, file } = await store();
    const records = [judged('a'), judged('b')];
    for (const record of records) await run.appendSample(record);
    const text = await readFile(file, 'utf8');
    expect(text.split(prompt).length - 1).toBe(2);
    expect(text.split(answer).length - 1).toBe(2);
    expect(await run.readSamples()).toEqual(records);
    expect(await run.readSamples({ events: false })).toEqual(records.map((record) => ({ ...record, events: [] })));
    const scanned: SampleRecord[] = [];
    await run.scanSamples({ events: true }, (record) => scanned.push(record));
    expect(scanned).toEqual(records);
  });

  it('resolves a text kept in an event for a reader that drops the events', async () => {
    const { store: run } = await store();
    const record = testSampleRecord({
      id: 'late',
      events: [
        { id: 'e1', time: '2025-01-02T03:04:05.000Z', type: 'sample-start', sampleId: 'late' },
        { id: 'e2', time: '2025-01-02T03:04:05.000Z', type: 'info', code: 'note', message: answer },
      ],
      terminationReason: answer,
    });
    await run.appendSample(record);
    const [read] = await run.readSamples({ events: false });
    expect(read?.terminationReason).toBe(answer);
  });

  it('reads lines written before references unchanged, next to new ones', async () => {
    const { store: run, file } = await store();
    const old = judged('old');
    await writeFile(file, `${JSON.stringify(old)}\n`);
    await run.appendSample(judged('new'));
    expect(await run.readSamples()).toEqual([old, judged('new')]);
  });

  it('a line with a broken reference is a malformed record naming the file and line', async () => {
    const { store: run, file } = await store();
    await run.appendSample(judged('a'));
    const line = encodeRecordLine(judged('b')).replace('"/events/1/prompt"', '"/events/9/prompt"');
    await appendFile(file, `${line}\n${encodeRecordLine(judged('c'))}\n`);
    await expect(run.readSamples()).rejects.toThrow(
      `malformed record in ${file} at line 2: not a sample record: the reference at /input/messages/0/content names /events/9/prompt, which is not a stored text`,
    );
  });

  it('whole lines copied into another file (as a merge of shards may) stay valid', () => {
    const lines = [judged('a'), judged('b')].map((record) => `${encodeRecordLine(record)}\n`);
    const copied = [lines[1], lines[0]].join('');
    expect(readLatestRecords({ text: copied, file: 'merged' })).toEqual([judged('b'), judged('a')]);
  });
});
