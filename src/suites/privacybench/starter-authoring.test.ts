import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { loadStarterAuthoring, STARTER_AUTHORING } from './starter-authoring.js';

describe('starter-authoring.json', () => {
  it('holds the six members, two groups and twelve secrets of the starter community', () => {
    expect(STARTER_AUTHORING.users.map((user) => user.userId)).toHaveLength(6);
    expect(STARTER_AUTHORING.groups).toHaveLength(2);
    expect(STARTER_AUTHORING.secrets).toHaveLength(12);
  });

  it('is validated when loaded: an unknown chat topic or a stray field is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-starter-'));
    try {
      const raw = JSON.parse(readFileSync(new URL('./starter-authoring.json', import.meta.url), 'utf8')) as {
        chatTemplates: Array<{ topic: string }>;
        users: Array<Record<string, unknown>>;
      };
      const topic = structuredClone(raw);
      topic.chatTemplates[0]!.topic = 'gossip';
      writeFileSync(join(dir, 'topic.json'), JSON.stringify(topic));
      expect(() => loadStarterAuthoring(pathToFileURL(join(dir, 'topic.json')))).toThrow(ZodError);
      const stray = structuredClone(raw);
      stray.users[0]!.nickname = 'may';
      writeFileSync(join(dir, 'stray.json'), JSON.stringify(stray));
      expect(() => loadStarterAuthoring(pathToFileURL(join(dir, 'stray.json')))).toThrow(ZodError);
      writeFileSync(join(dir, 'same.json'), JSON.stringify(raw));
      expect(loadStarterAuthoring(pathToFileURL(join(dir, 'same.json')))).toEqual(STARTER_AUTHORING);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
