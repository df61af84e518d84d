import { describe, expect, it } from 'vitest';
import { MODEL_ROLES } from '../runner/role-registry.js';
import { ModelSpecError } from '../spec/errors.js';
import { checkRepeatedRoles, createRoleCatalog } from './role-catalog.js';

describe('the run role catalog (MODEL_ROLES)', () => {
  it('knows the documented roles and agent seats, and nothing else', () => {
    for (const role of ['agent', 'agent-a', 'agent-b2', 'generator', 'prober', 'judge', 'summarizer', 'datagen']) {
      expect(MODEL_ROLES.isKnown(role)).toBe(true);
    }
    for (const role of ['agents', 'agent-', 'agent-<id>', 'Judge', 'critic', '']) {
      expect(MODEL_ROLES.isKnown(role)).toBe(false);
    }
    expect(MODEL_ROLES.names()).toEqual([
      'agent',
      'agent-<id>',
      'generator',
      'verifier',
      'refiner',
      'extractor',
      'checker',
      'executor',
      'prober',
      'judge',
      'summarizer',
      'embedder',
      'datagen',
    ]);
  });

  it('gives the documented fallbacks', () => {
    expect(MODEL_ROLES.fallbacks('agent-a')).toEqual(['agent']);
    expect(MODEL_ROLES.fallbacks('generator')).toEqual(['agent']);
    expect(MODEL_ROLES.fallbacks('executor')).toEqual(['agent']);
    expect(MODEL_ROLES.fallbacks('summarizer')).toEqual(['judge', 'agent']);
    expect(MODEL_ROLES.fallbacks('agent')).toEqual([]);
    expect(MODEL_ROLES.fallbacks('prober')).toEqual([]);
    expect(MODEL_ROLES.fallbacks('embedder')).toEqual([]);
    expect(MODEL_ROLES.fallbacks('critic')).toEqual([]);
  });

  it('never lets the judge fall back to a model under test', () => {
    expect(MODEL_ROLES.fallbacks('judge')).toEqual([]);
  });

  it('returns a fresh array each time', () => {
    MODEL_ROLES.fallbacks('generator').push('mutated');
    expect(MODEL_ROLES.fallbacks('generator')).toEqual(['agent']);
  });

  it('judge (ensemble) and agent-<id> seats (grid) are repeatable, nothing else', () => {
    expect(MODEL_ROLES.isRepeatable('judge')).toBe(true);
    expect(MODEL_ROLES.isRepeatable('agent')).toBe(false);
    expect(MODEL_ROLES.isRepeatable('agent-a')).toBe(true);
    expect(MODEL_ROLES.isRepeatable('embedder')).toBe(false);
  });

  it('kinds, seats and defaults come from the definitions', () => {
    expect(MODEL_ROLES.find('embedder')?.kind).toBe('embedding');
    expect(MODEL_ROLES.find('agent-x')?.id).toBe('agent-<id>');
    expect(['agent', 'agent-a', 'judge', 'generator'].map((role) => MODEL_ROLES.isSeat(role))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(MODEL_ROLES.find('judge')?.defaults).toEqual({ temperature: 0, seed: 0 });
  });
});

describe('createRoleCatalog', () => {
  it('serves any contributed role, and refuses a role defined twice', () => {
    const catalog = createRoleCatalog([
      { id: 'agent', kind: 'chat' },
      { id: 'critic', kind: 'chat', fallbacks: ['agent'] },
    ]);
    expect(catalog.isKnown('critic')).toBe(true);
    expect(catalog.fallbacks('critic')).toEqual(['agent']);
    expect(catalog.isKnown('judge')).toBe(false);
    expect(() =>
      createRoleCatalog([
        { id: 'a', kind: 'chat' },
        { id: 'a', kind: 'embedding' },
      ]),
    ).toThrow('model role "a" is defined twice');
  });
});

describe('checkRepeatedRoles', () => {
  it('refuses a non-repeatable role bound twice, naming its specs, and allows ensembles and grids', () => {
    const twice = () =>
      checkRepeatedRoles({
        roles: MODEL_ROLES,
        bindings: [
          { role: 'embedder', spec: 'hashing:384' },
          { role: 'agent', spec: 'mock:echo' },
          { role: 'embedder', spec: 'openai:text-embedding-3-small' },
        ],
      });
    expect(twice).toThrow(ModelSpecError);
    expect(twice).toThrow(
      'role "embedder" is bound 2 times (hashing:384, openai:text-embedding-3-small); only agent-<id>, judge may be bound several times: keep a single --model embedder=<spec>',
    );
    expect(() =>
      checkRepeatedRoles({
        roles: MODEL_ROLES,
        bindings: [
          { role: 'judge', spec: 'mock:a' },
          { role: 'judge', spec: 'mock:b' },
          { role: 'agent-a', spec: 'mock:a' },
          { role: 'agent-a', spec: 'mock:b' },
        ],
      }),
    ).not.toThrow();
  });
});
