/**
 * The model roles a run can bind with `--model role=spec`, and where each falls back when it
 * is not bound. `agent-<id>` (PAC seats) is a family, not a single name.
 */
export const KNOWN_ROLES = [
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
] as const;

const AGENT_SEAT = /^agent-[a-z0-9][a-z0-9-]*$/;

/** Roles whose own model is used when unbound, in order. Absent here means no fallback. */
const FALLBACKS: Record<string, readonly string[]> = {
  generator: ['agent'],
  verifier: ['agent'],
  refiner: ['agent'],
  extractor: ['agent'],
  checker: ['agent'],
  executor: ['agent'],
  // The summarizer prefers the judge (a neutral model), else the seat's own model.
  summarizer: ['judge', 'agent'],
};

const NAMED_ROLES = new Set<string>(KNOWN_ROLES.filter((role) => role !== 'agent-<id>'));

/** True for every role listed in `KNOWN_ROLES`, including any `agent-<id>` seat. */
export function isKnownRole(role: string): boolean {
  return NAMED_ROLES.has(role) || AGENT_SEAT.test(role);
}

/** True for the roles that seat an agent under test: `agent` and every `agent-<id>`. */
export function isSeatRole(role: string): boolean {
  return role === 'agent' || AGENT_SEAT.test(role);
}

/**
 * The roles tried, in order, when `role` itself is unbound (the role itself is not included).
 * `judge` has none: a judge never falls back to a model under test. Unknown roles have none.
 */
export function roleFallbacks(role: string): string[] {
  if (AGENT_SEAT.test(role)) return ['agent'];
  return [...(FALLBACKS[role] ?? [])];
}

/**
 * Roles that may be bound several times: `judge` (an ensemble) and the `agent-<id>` seats (a model
 * grid: a suite runs every combination of seat models, pacbench.md §2).
 */
export function isRepeatableRole(role: string): boolean {
  return role === 'judge' || AGENT_SEAT.test(role);
}
