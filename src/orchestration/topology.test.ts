import { describe, expect, it } from 'vitest';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import {
  chainCalls,
  checkTreeSize,
  MAX_CHAIN_ROLES,
  parseBranching,
  parseTopology,
  resolveBranching,
  TOPOLOGY_GRAMMAR,
  treeCalls,
} from './topology.js';

const labels = (source: string) =>
  parseTopology(source).stages.map((stage) => stage.members.map((member) => member.label));

function errorOf(action: () => unknown): ConfidantError {
  try {
    action();
  } catch (error) {
    if (ConfidantError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('parseTopology', () => {
  it('parses every example of privact.md §2.2', () => {
    expect(labels('G>V>R')).toEqual([['Generator'], ['Verifier'], ['Refiner']]);
    expect(labels('G>V>V>R')).toEqual([['Generator'], ['Verifier 1'], ['Verifier 2'], ['Refiner']]);
    expect(labels('G>V>R>V>R')).toEqual([['Generator'], ['Verifier 1'], ['Refiner 1'], ['Verifier 2'], ['Refiner 2']]);
    expect(labels('G>[V,V]>R')).toEqual([['Generator'], ['Verifier 1', 'Verifier 2'], ['Refiner']]);
    expect(labels('G>R')).toEqual([['Generator'], ['Refiner']]);
    expect(labels('E>C>X')).toEqual([['Extractor'], ['Checker'], ['Executor']]);
  });

  it('accepts full role names, any case and spaces, and gives a canonical shape', () => {
    const topology = parseTopology(' generator > [ Verifier , v ] > REFINER ');
    expect(topology.shape).toBe('G>[V,V]>R');
    expect(topology.stages.map((stage) => stage.members.map((member) => member.role))).toEqual([
      ['generator'],
      ['verifier', 'verifier'],
      ['refiner'],
    ]);
    expect(topology.stages[1]?.members.map((member) => member.ordinal)).toEqual([1, 2]);
    expect(topology.stages[0]?.members[0]?.ordinal).toBeNull();
  });

  it('reads *n per stage and per group', () => {
    const topology = parseTopology('G*4>[V,V]*2>R');
    expect(topology.stages.map((stage) => stage.branching)).toEqual([4, 2, undefined]);
    expect(topology.shape).toBe('G>[V,V]>R');
  });

  it.each([
    ['', /it is empty/],
    ['G>V', /last stage must be a single actor/],
    ['G>[R,R]', /last stage must be a single actor/],
    ['G>>R', /a role is missing/],
    ['G>Q>R', /unknown role 'Q'/],
    ['G>[V]>R', /at least two roles; write 'V' without brackets/],
    ['G>[V,V>R', /not closed|unbalanced/],
    ['G>[V,[V]]>R', /unbalanced or nested/],
    ['G*0>R', /positive integer, got '0'/],
    ['G*x>R', /positive integer, got 'x'/],
    ['G>V,V>R', /unknown role 'V,V'/],
  ])('rejects %j with a message showing the grammar', (source, problem) => {
    const error = errorOf(() => parseTopology(source));
    expect(error).toBeInstanceOf(PlanValidationError);
    expect(error.userError).toBe(true);
    expect(error.message).toMatch(problem);
    expect(error.message).toContain(TOPOLOGY_GRAMMAR);
    expect(error.message).toContain(`invalid topology '${source}'`);
  });
});

describe('plan-size guards', () => {
  it('refuses a chain of more than MAX_CHAIN_ROLES roles, naming its length', () => {
    const long = `${Array.from({ length: 4_999 }, () => 'V').join('>')}>R`;
    const error = errorOf(() => parseTopology(long));
    expect(error).toBeInstanceOf(PlanValidationError);
    expect(error.message.split('\n')[0]).toMatch(/: it has 5000 roles, more than the 64 a chain may hold$/);
    const longest = `${Array.from({ length: MAX_CHAIN_ROLES - 1 }, () => 'V').join('>')}>R`;
    expect(parseTopology(longest).stages).toHaveLength(MAX_CHAIN_ROLES);
  });

  it('counts the calls of a tree and refuses one over MAX_TREE_CALLS with its size', () => {
    const topology = parseTopology('G>V>R');
    expect(treeCalls({ topology, branching: [4, 4, 4] })).toBe(84);
    expect(treeCalls({ topology: parseTopology('G>[V,V]>R'), branching: [2, 1, 3] })).toBe(2 + 4 + 6);
    expect(() => checkTreeSize({ topology, branching: [4, 4, 4] })).not.toThrow();
    expect(() => checkTreeSize({ topology, branching: [1000, 1000, 1000] })).toThrow(
      new PlanValidationError(
        'branching 1000,1000,1000 over G>V>R makes 1,001,001,000 model calls per tree, more than the 10,000 a tree may take; lower the branching',
      ),
    );
  });
});

describe('branching', () => {
  it('parses one value or a list', () => {
    expect(parseBranching('4')).toEqual([4]);
    expect(parseBranching('10, 1,1')).toEqual([10, 1, 1]);
    expect(() => parseBranching('4,,4')).toThrow(/invalid branching '4,,4'/);
    expect(() => parseBranching('0')).toThrow(PlanValidationError);
  });

  it('spreads one value, takes a full list, and defaults to 1', () => {
    const topology = parseTopology('G>V>R');
    expect(resolveBranching({ topology })).toEqual([1, 1, 1]);
    expect(resolveBranching({ topology, branching: '4' })).toEqual([4, 4, 4]);
    expect(resolveBranching({ topology, branching: [10, 1, 1] })).toEqual([10, 1, 1]);
  });

  it('merges *n with the list and rejects disagreements and wrong lengths', () => {
    expect(resolveBranching({ topology: parseTopology('G*10>V>R') })).toEqual([10, 1, 1]);
    expect(resolveBranching({ topology: parseTopology('G*10>V>R'), branching: '10,2,3' })).toEqual([10, 2, 3]);
    expect(() => resolveBranching({ topology: parseTopology('G*10>V>R'), branching: '4' })).toThrow(
      /stage 1 of G>V>R has '\*10' in the topology but branching 4/,
    );
    expect(() => resolveBranching({ topology: parseTopology('G>V>R'), branching: '4,4' })).toThrow(
      /has 2 values but topology G>V>R has 3 stages/,
    );
  });
});

describe('chainCalls', () => {
  it('lists one call per member with the outputs of earlier stages it sees', () => {
    expect(chainCalls(parseTopology('G>V>R'))).toEqual([
      { role: 'generator', upstream: 0 },
      { role: 'verifier', upstream: 1 },
      { role: 'refiner', upstream: 2 },
    ]);
    expect(chainCalls(parseTopology('G>[V,V]>R'))).toEqual([
      { role: 'generator', upstream: 0 },
      { role: 'verifier', upstream: 1 },
      { role: 'verifier', upstream: 1 },
      { role: 'refiner', upstream: 3 },
    ]);
  });
});
