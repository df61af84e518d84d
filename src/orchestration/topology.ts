import { PlanValidationError } from '../spec/errors.js';

/** The six roles a chain stage can play (`privact.md` §2.1). */
export type ChainRole = 'generator' | 'verifier' | 'refiner' | 'extractor' | 'checker' | 'executor';

/**
 * What a role produces: actors write the task's answer (a final action or the answer text),
 * critics review upstream outputs, analysts prepare material for later stages.
 */
export type RoleKind = 'actor' | 'critic' | 'analyst';

/** Letter, display title, kind and output noun of each role, in the grammar's order. */
export const CHAIN_ROLES: Readonly<
  Record<ChainRole, { letter: string; title: string; kind: RoleKind; outputNoun: string }>
> = {
  generator: { letter: 'G', title: 'Generator', kind: 'actor', outputNoun: 'Response' },
  verifier: { letter: 'V', title: 'Verifier', kind: 'critic', outputNoun: 'Critique' },
  refiner: { letter: 'R', title: 'Refiner', kind: 'actor', outputNoun: 'Response' },
  extractor: { letter: 'E', title: 'Extractor', kind: 'analyst', outputNoun: 'List' },
  checker: { letter: 'C', title: 'Checker', kind: 'critic', outputNoun: 'Assessment' },
  executor: { letter: 'X', title: 'Executor', kind: 'actor', outputNoun: 'Response' },
};

/** One role in one stage. `label` is `Verifier 2` when the role occurs more than once in the chain. */
export type StageMember = {
  role: ChainRole;
  label: string;
  /** 1-based occurrence of the role in the chain, or null when the role occurs once. */
  ordinal: number | null;
};

/** One `>`-separated stage: a single role or a parallel group, with its `*n` branching if written. */
export type TopologyStage = {
  index: number;
  members: StageMember[];
  /** Branching written as `*n` in the topology; undefined when the stage has none. */
  branching: number | undefined;
};

/** A parsed topology. `shape` is the canonical letter form without branching, e.g. `G>[V,V]>R`. */
export type Topology = {
  source: string;
  shape: string;
  stages: TopologyStage[];
};

/** The grammar, shown in every parse error (`privact.md` §2.2). */
export const TOPOLOGY_GRAMMAR = [
  "topology := stage ( '>' stage )*",
  "stage    := role [ '*' INT ] | '[' role ( ',' role )+ ']' [ '*' INT ]",
  'role     := G | V | R | E | C | X | generator | verifier | refiner | extractor | checker | executor',
  'the last stage must be a single actor (G, R or X); examples: G>V>R, G>[V,V]>R, E>C>X, G*4>V*4>R*4',
].join('\n');

const ROLE_BY_TOKEN = new Map<string, ChainRole>(
  (Object.keys(CHAIN_ROLES) as ChainRole[]).flatMap((role) => [
    [CHAIN_ROLES[role].letter.toLowerCase(), role],
    [role, role],
  ]),
);

function fail(source: string, problem: string): never {
  throw new PlanValidationError(`invalid topology '${source}': ${problem}\n${TOPOLOGY_GRAMMAR}`);
}

function parseRole(source: string, token: string): ChainRole {
  const role = ROLE_BY_TOKEN.get(token.trim().toLowerCase());
  if (role === undefined) {
    fail(
      source,
      token.trim() === '' ? 'a role is missing (empty stage or group item)' : `unknown role '${token.trim()}'`,
    );
  }
  return role;
}

function parseCount(source: string, text: string, what: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) fail(source, `${what} must be a positive integer, got '${text}'`);
  return Number(text);
}

/** Splits on `>` outside brackets, so `[V>V]` is reported as a bad group rather than two stages. */
function splitStages(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of source) {
    if (char === '[') depth += 1;
    if (char === ']') depth -= 1;
    if (depth < 0 || depth > 1) fail(source, 'brackets are unbalanced or nested');
    if (char === '>' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  if (depth !== 0) fail(source, "a '[' group is not closed");
  parts.push(current);
  return parts;
}

/**
 * The most roles one chain may hold. Every stage's prompt carries the outputs of all earlier
 * stages, so prompts grow with the square of the chain's length: a chain of thousands of roles
 * would only run out of memory.
 */
export const MAX_CHAIN_ROLES = 64;

/** The most model calls one tree may take (see {@link treeCalls}); e.g. `4,4,4` over G>V>R takes 84. */
export const MAX_TREE_CALLS = 10_000;

const STAGE = /^\s*(?:\[([^\]]*)\]|([^[\]*]*?))\s*(?:\*\s*(\S*))?\s*$/;

/**
 * Parses a topology string such as `G>V>R`, `G>[V,V]>R`, `extractor>checker>executor` or
 * `G*4>V*4>R*4` (roles are case-insensitive letters or full names). Validates that every stage
 * is non-empty, groups hold at least two roles, `*n` is a positive integer, and the last stage
 * is a single actor. Roles that occur more than once get ordinals in their labels
 * (`Verifier 1`, `Verifier 2`, counted in chain order). Throws `PlanValidationError` showing
 * the grammar.
 */
export function parseTopology(source: string): Topology {
  if (source.trim() === '') fail(source, 'it is empty');
  const raw = splitStages(source).map((text) => {
    const match = STAGE.exec(text);
    if (!match) fail(source, `cannot read stage '${text.trim()}'`);
    const [, group, single, count] = match;
    const roles =
      group === undefined ? [parseRole(source, single ?? '')] : group.split(',').map((t) => parseRole(source, t));
    if (group !== undefined && roles.length < 2) {
      fail(source, `a bracketed group needs at least two roles; write '${group.trim()}' without brackets`);
    }
    return {
      roles,
      branching: count === undefined ? undefined : parseCount(source, count, `the branching after '*'`),
      grouped: group !== undefined,
    };
  });
  const roleCount = raw.reduce((sum, stage) => sum + stage.roles.length, 0);
  if (roleCount > MAX_CHAIN_ROLES) {
    fail(source, `it has ${roleCount} roles, more than the ${MAX_CHAIN_ROLES} a chain may hold`);
  }
  const totals = new Map<ChainRole, number>();
  for (const stage of raw) for (const role of stage.roles) totals.set(role, (totals.get(role) ?? 0) + 1);
  const seen = new Map<ChainRole, number>();
  const stages: TopologyStage[] = raw.map((stage, index) => ({
    index,
    branching: stage.branching,
    members: stage.roles.map((role) => {
      const occurrence = (seen.get(role) ?? 0) + 1;
      seen.set(role, occurrence);
      const repeated = (totals.get(role) ?? 0) > 1;
      return {
        role,
        label: repeated ? `${CHAIN_ROLES[role].title} ${occurrence}` : CHAIN_ROLES[role].title,
        ordinal: repeated ? occurrence : null,
      };
    }),
  }));
  const last = stages.at(-1);
  if (last === undefined || last.members.length !== 1 || CHAIN_ROLES[last.members[0]!.role].kind !== 'actor') {
    fail(source, 'the last stage must be a single actor (G, R or X): its output is the final answer');
  }
  const shape = raw
    .map((stage) => {
      const letters = stage.roles.map((role) => CHAIN_ROLES[role].letter);
      return stage.grouped ? `[${letters.join(',')}]` : letters.join('');
    })
    .join('>');
  return { source, shape, stages };
}

/** Parses a `--branching` value: `4` or `4,4,4` (positive integers). */
export function parseBranching(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  return parts.map((part) => {
    if (!/^\d+$/.test(part) || Number(part) < 1) {
      throw new PlanValidationError(
        `invalid branching '${text}': give one positive integer for every stage (e.g. 4,4,4) or one for all (e.g. 4)`,
      );
    }
    return Number(part);
  });
}

/**
 * The branching of every stage: `--branching` (one value for all stages, or exactly one per
 * stage) merged with the topology's `*n`. A stage with neither gets 1. A stage whose `*n`
 * disagrees with the list is a PlanValidationError, so a run never silently ignores one of them.
 */
export function resolveBranching({
  topology,
  branching,
}: {
  topology: Topology;
  branching?: readonly number[] | string;
}): number[] {
  const list = typeof branching === 'string' ? parseBranching(branching) : branching;
  const count = topology.stages.length;
  if (list !== undefined && list.length !== 1 && list.length !== count) {
    throw new PlanValidationError(
      `branching ${list.join(',')} has ${list.length} values but topology ${topology.shape} has ${count} stages: ` +
        'give one value per stage or a single value for all',
    );
  }
  return topology.stages.map((stage, index) => {
    const given = list === undefined ? undefined : list.length === 1 ? list[0] : list[index];
    if (given !== undefined && (!Number.isInteger(given) || given < 1)) {
      throw new PlanValidationError(`branching must be positive integers, got ${list?.join(',')}`);
    }
    if (given !== undefined && stage.branching !== undefined && given !== stage.branching) {
      throw new PlanValidationError(
        `stage ${index + 1} of ${topology.shape} has '*${stage.branching}' in the topology but branching ${given}: ` +
          'drop one of them or make them equal',
      );
    }
    return given ?? stage.branching ?? 1;
  });
}

/**
 * The model calls of one tree: every stage runs once per node of the stage above it, times its
 * branching, for each of its members (`4,4,4` over G>V>R: 4 + 16 + 64 = 84).
 */
export function treeCalls({ topology, branching }: { topology: Topology; branching: readonly number[] }): number {
  let nodes = 1;
  let calls = 0;
  topology.stages.forEach((stage, index) => {
    nodes *= branching[index] ?? 1;
    calls += nodes * stage.members.length;
  });
  return calls;
}

/** Refuses a tree of more than {@link MAX_TREE_CALLS} calls up front, with its computed size. */
export function checkTreeSize({ topology, branching }: { topology: Topology; branching: readonly number[] }): void {
  const calls = treeCalls({ topology, branching });
  if (calls > MAX_TREE_CALLS) {
    throw new PlanValidationError(
      `branching ${branching.join(',')} over ${topology.shape} makes ${calls.toLocaleString('en-US')} model calls per tree, ` +
        `more than the ${MAX_TREE_CALLS.toLocaleString('en-US')} a tree may take; lower the branching`,
    );
  }
}

/**
 * The calls one pass of `topology` makes (branching 1 everywhere), in stage order: each member's
 * role and how many outputs of earlier stages its prompt carries (every earlier member's, since
 * a single pass has one ancestor per stage member; members of one group do not see each other).
 */
export function chainCalls(topology: Topology): Array<{ role: ChainRole; upstream: number }> {
  const calls: Array<{ role: ChainRole; upstream: number }> = [];
  let upstream = 0;
  for (const stage of topology.stages) {
    for (const member of stage.members) calls.push({ role: member.role, upstream });
    upstream += stage.members.length;
  }
  return calls;
}
