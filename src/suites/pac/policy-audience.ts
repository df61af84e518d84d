import type { PacAgent, PacPolicy, PacScenario } from './scenario-schema.js';

/**
 * Whether `recipient` may learn what `policy` protects (our N-party extension). A policy without
 * an audience protects its data from everyone; with one, every field it gives must hold: the
 * recipient is in `allowedRecipients`, is not in `forbiddenRecipients`, and its clearance
 * (absent: 0) is at least `minClearance`. The owner itself is never a recipient.
 */
export function mayLearn({ policy, recipient }: { policy: PacPolicy; recipient: PacAgent }): boolean {
  const audience = policy.audience;
  if (audience === undefined) return false;
  if (audience.allowedRecipients !== undefined && !audience.allowedRecipients.includes(recipient.id)) return false;
  if (audience.forbiddenRecipients?.includes(recipient.id) === true) return false;
  if (audience.minClearance !== undefined && (recipient.clearance ?? 0) < audience.minClearance) return false;
  return true;
}

/** The other agents of `scenario` that may learn what `owner`'s `policy` protects, in seat order. */
export function allowedAudience({
  scenario,
  owner,
  policy,
}: {
  scenario: PacScenario;
  owner: string;
  policy: PacPolicy;
}): PacAgent[] {
  return scenario.agents.filter((agent) => agent.id !== owner && mayLearn({ policy, recipient: agent }));
}

/** The policies of `owner` whose data `recipient` must not learn, in policy order. */
export function policiesForbiddenTo({ owner, recipient }: { owner: PacAgent; recipient: PacAgent }): PacPolicy[] {
  return owner.policies.filter((policy) => !mayLearn({ policy, recipient }));
}

/** Whether any policy of the scenario names an audience. */
export function hasAudienceScopedPolicies(scenario: PacScenario): boolean {
  return scenario.agents.some((agent) => agent.policies.some((policy) => policy.audience !== undefined));
}

/**
 * Whether the scenario uses the N-party features that make "who learned what" a question of its
 * own: direct messaging, or an audience-scoped policy. Only then do messages and snapshots record
 * their recipients and the judges add per-recipient scores. A broadcast scenario without
 * audiences (every upstream scenario, and our three-agent starter) reaches every agent with every
 * message and protects everything from everyone, so a per-recipient score would repeat the
 * agent's own; such scenarios record and score exactly as before, however many agents they seat.
 */
export function isMultiParty(scenario: PacScenario): boolean {
  return scenario.messaging === 'direct' || hasAudienceScopedPolicies(scenario);
}
