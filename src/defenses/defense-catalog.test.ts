import { describe, expect, it } from 'vitest';
import type { TaskKind } from '../spec/defense.js';
import { defenseFamilies, loadDefense } from './defense-catalog.js';
import { defenseRegistry, resolveDefense } from './registry.js';

/** What resolving gives: the defense's id and kind, or the error message. */
async function outcome(resolve: () => unknown): Promise<string> {
  try {
    const defense = (await resolve()) as { id: string; kind: string };
    return `${defense.id} (${defense.kind})`;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('loadDefense', () => {
  const cases: Array<[string, TaskKind]> = [
    ['vanilla', 'free-text-answer'],
    ['vanilla:x', 'final-action'],
    ['ppe', 'assistant-turn'],
    ['privacy-prompt', 'collaboration-turn'],
    ['chain', 'final-action'],
    ['chain:G>[V,V]>R', 'assistant-turn'],
    ['chain:G>V', 'final-action'],
    ['aifc', 'final-action'],
    ['aifc:', 'final-action'],
    ['aifc:upstream', 'final-action'],
    ['aifc:loose', 'final-action'],
    ['acr', 'assistant-turn'],
    ['acr:participants', 'assistant-turn'],
    ['acr:other', 'assistant-turn'],
    ['acr', 'final-action'],
    ['magic', 'free-text-answer'],
  ];

  it.each(cases)('resolves %s (%s) as resolveDefense does, with the same errors', async (id, taskKind) => {
    expect(await outcome(() => loadDefense({ id, taskKind }))).toBe(
      await outcome(() => resolveDefense({ id, taskKind })),
    );
  });

  it('lists the same families as the registry, in the same order', () => {
    expect(defenseFamilies.map(({ load: _load, ...family }) => family)).toEqual(
      defenseRegistry.map(({ create: _create, ...family }) => family),
    );
  });

  it('gives access-controlled retrieval the description its default policy has', async () => {
    const family = defenseFamilies.find((entry) => entry.id === 'access-controlled-retrieval')!;
    expect((await family.load())(undefined).description).toBe(family.description);
  });
});
