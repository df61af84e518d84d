import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GenerationError } from '../../../generation/index.js';
import { type CommunityDocument, secretIdsOf, sharingKindOf } from '../community-schema.js';
import { loadCommunity } from '../load-community.js';
import { scriptedDatagen, scriptedDatagenModel, stepOf } from './__fixtures__/scripted-datagen.js';
import { generateCommunity } from './generate-community.js';
import { resolveGenerationOptions } from './generation-options.js';

const FIXED_NOW = () => new Date('2025-01-02T03:04:05.000Z');

function tinyOptions(overrides: { seed?: number; maxAttempts?: number } = {}) {
  return resolveGenerationOptions({
    communityId: 'tiny',
    overrides: {
      seed: overrides.seed ?? 7,
      steps: 2,
      ...(overrides.maxAttempts === undefined ? {} : { maxAttempts: overrides.maxAttempts }),
      parameters: {
        users: 4,
        seedPersonas: 3,
        groups: 1,
        privateConversationsPerUser: 2,
        groupConversationsPerUser: 1,
        aiConversationsPerUser: 1,
        blogPostsPerUser: 1,
        purchasesPerUser: 1,
        secretsPerUser: { person: 1, group: 1, ai: 1 },
      },
    },
  });
}

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'pb-generate-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function isSecretBearing(doc: CommunityDocument): boolean {
  return secretIdsOf(doc).length > 0;
}

describe('generateCommunity', () => {
  it('builds a small community from scripted datagen answers that loadCommunity accepts', async () => {
    const { model, calls } = scriptedDatagenModel(scriptedDatagen());
    const out = join(work, 'tiny');
    const result = await generateCommunity({ model, options: tinyOptions(), outDir: out, now: FIXED_NOW });
    const loaded = await loadCommunity({ dir: out });
    expect(loaded.community).toEqual(result.community);
    const { community, documents } = loaded;
    expect(community.users.map((user) => user.userId)).toEqual(['u01', 'u02', 'u03', 'u04']);
    expect(community.users.map((user) => user.isSeed)).toEqual([true, true, true, false]);
    expect(community.groups).toHaveLength(1);
    expect(community.generation).toMatchObject({
      datagenModel: 'mock:scripted',
      seed: 7,
      createdAt: '2025-01-02T03:04:05.000Z',
    });
    // One secret of each kind per member, each shared in its own tagged conversation.
    expect(community.secrets).toHaveLength(12);
    expect(community.secrets.map((secret) => sharingKindOf(secret)).sort()).toEqual([
      ...Array(4).fill('ai'),
      ...Array(4).fill('group'),
      ...Array(4).fill('person'),
    ]);
    for (const secret of community.secrets) {
      for (const event of secret.sharingEvents) {
        const doc = documents.find((candidate) => candidate.docId === event.docIds[0]);
        expect(doc?.isNoise).toBe(false);
      }
    }
    // Hinting purchases are tagged with their secret.
    const hints = documents.filter(
      (doc) => doc.type === 'purchase' && doc.items.some((item) => item.secretIds !== undefined),
    );
    expect(hints).toHaveLength(4);
    // Mundane volumes per user: 2 chats, 1 group chat, 1 AI chat, 1 blog, 1 purchase, spread over 2 steps.
    // u03's only tie (work) ends mid-year, so its second-step chat has no possible partner and is skipped.
    const mundane = documents.filter((doc) => !isSecretBearing(doc));
    const count = (type: string) => mundane.filter((doc) => doc.type === type).length;
    expect({
      chat: count('chat'),
      group: count('group-chat'),
      ai: count('ai-chat'),
      blog: count('blog'),
      purchase: count('purchase'),
    }).toEqual({
      chat: 7,
      group: 4,
      ai: 4,
      blog: 4,
      purchase: 4,
    });
    expect(mundane.filter((doc) => doc.type === 'chat' && doc.ownerId === 'u03')).toHaveLength(1);
    expect(documents.map((doc) => doc.time)).toEqual([...documents.map((doc) => doc.time)].sort());
    expect(calls.length).toBeGreaterThan(0);
    // Every request carries the step's JSON schema and a seed.
    for (const call of calls) {
      expect(call.responseSchema?.jsonSchema).toMatchObject({ type: 'object' });
      expect(typeof call.settings.seed).toBe('number');
    }
  });

  it('is deterministic: the same answers and seed give byte-identical files', async () => {
    const first = join(work, 'a');
    const second = join(work, 'b');
    await generateCommunity({
      model: scriptedDatagenModel(scriptedDatagen()).model,
      options: tinyOptions(),
      outDir: first,
      now: FIXED_NOW,
    });
    await generateCommunity({
      model: scriptedDatagenModel(scriptedDatagen()).model,
      options: tinyOptions(),
      outDir: second,
      now: FIXED_NOW,
    });
    for (const file of ['community.json', 'documents.jsonl']) {
      expect(await readFile(join(second, file), 'utf8')).toBe(await readFile(join(first, file), 'utf8'));
    }
  });

  it('rejects a confidant whose relationship ended before the sharing event and regenerates only that unit', async () => {
    const { model, calls } = scriptedDatagenModel(scriptedDatagen({ plant: 'once' }));
    const out = join(work, 'planted');
    const progress: Array<{ unit: string; status: string; problems?: string[] }> = [];
    await generateCommunity({
      model,
      options: tinyOptions(),
      outDir: out,
      now: FIXED_NOW,
      onProgress: (event) => progress.push(event),
    });
    const rejected = progress.filter((event) => event.status === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    for (const event of rejected) {
      expect(event.unit).toMatch(/^secrets\/u0\d$/);
      expect(event.problems?.join('\n')).toMatch(/has no active relationship with owner/);
    }
    // The regeneration prompt carries the problem and the rejected answer.
    const retries = calls.filter((call) => call.messages[0]?.content.includes('Your previous answer was rejected'));
    expect(retries.length).toBe(rejected.length);
    expect(retries.every((call) => stepOf(call.messages[0]?.content ?? '') === 'secrets')).toBe(true);
    const { community } = await loadCommunity({ dir: out });
    expect(community.secrets).toHaveLength(12);
  });

  it('fails with a clear error naming the unit when datagen keeps planting the inconsistency', async () => {
    const { model } = scriptedDatagenModel(scriptedDatagen({ plant: 'always' }));
    const error = await generateCommunity({
      model,
      options: tinyOptions({ maxAttempts: 2 }),
      outDir: join(work, 'stubborn'),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as GenerationError).userError).toBe(true);
    expect((error as GenerationError).unit).toMatch(/^secrets\/u0\d$/);
    expect((error as Error).message).toMatch(/still fails after 2 attempt\(s\)/);
    expect((error as Error).message).toMatch(/confidant 'u0\d' has no active relationship with owner 'u0\d'/);
  });
});

describe('generateCommunity resume', () => {
  it('continues a killed generation without asking again for finished units', async () => {
    const straight = scriptedDatagenModel(scriptedDatagen());
    const reference = join(work, 'reference');
    await generateCommunity({
      model: straight.model,
      options: tinyOptions(),
      outDir: reference,
      concurrency: 1,
      now: FIXED_NOW,
    });
    const total = straight.calls.length;

    const out = join(work, 'killed');
    const crashAt = 9;
    const reply = scriptedDatagen();
    const crashing = scriptedDatagenModel((prompt, callIndex) =>
      callIndex === crashAt ? new Error('connection reset (simulated crash)') : reply(prompt),
    );
    await expect(
      generateCommunity({ model: crashing.model, options: tinyOptions(), outDir: out, concurrency: 1, now: FIXED_NOW }),
    ).rejects.toThrow(/simulated crash/);
    const journal = await readFile(join(out, '.generate', 'journal.jsonl'), 'utf8');
    expect(journal.trimEnd().split('\n')).toHaveLength(crashAt);

    const resumed = scriptedDatagenModel(scriptedDatagen());
    const progress: string[] = [];
    await generateCommunity({
      model: resumed.model,
      options: tinyOptions(),
      outDir: out,
      concurrency: 1,
      now: FIXED_NOW,
      onProgress: (event) => progress.push(event.status),
    });
    expect(resumed.calls).toHaveLength(total - crashAt);
    expect(progress.filter((status) => status === 'resumed')).toHaveLength(crashAt);
    for (const file of ['community.json', 'documents.jsonl']) {
      expect(await readFile(join(out, file), 'utf8')).toBe(await readFile(join(reference, file), 'utf8'));
    }
  });

  it('stops on abort and resumes; a partial last journal line is ignored', async () => {
    const out = join(work, 'aborted');
    const controller = new AbortController();
    const reply = scriptedDatagen();
    const first = scriptedDatagenModel((prompt, callIndex) => {
      if (callIndex === 4) controller.abort();
      return reply(prompt);
    });
    await expect(
      generateCommunity({
        model: first.model,
        options: tinyOptions(),
        outDir: out,
        concurrency: 1,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    const { appendFile } = await import('node:fs/promises');
    await appendFile(join(out, '.generate', 'journal.jsonl'), '{"unit":"profile/u0', 'utf8');
    const second = scriptedDatagenModel(scriptedDatagen());
    await generateCommunity({ model: second.model, options: tinyOptions(), outDir: out, concurrency: 1 });
    const { community } = await loadCommunity({ dir: out });
    expect(community.users).toHaveLength(4);
    expect(second.calls.every((call) => stepOf(call.messages[0]?.content ?? '') !== 'seeds')).toBe(true);
  });

  it('refuses to resume with other options, naming what changed', async () => {
    const out = join(work, 'changed');
    await generateCommunity({
      model: scriptedDatagenModel(scriptedDatagen()).model,
      options: tinyOptions({ seed: 1 }),
      outDir: out,
    });
    const error = await generateCommunity({
      model: scriptedDatagenModel(scriptedDatagen()).model,
      options: tinyOptions({ seed: 2 }),
      outDir: out,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(/other settings \(seed\)/);
  });
});
