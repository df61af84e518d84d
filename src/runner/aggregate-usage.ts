import type { EmbeddingCallEvent, ModelCallEvent, TranscriptEvent } from '../spec/event.js';
import type { RoleUsage } from '../spec/run-record.js';

/** Usage of nothing: the identity of `addUsage`. */
export function emptyUsage(): RoleUsage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 0 };
}

/**
 * Adds two usages. Token counts add up; cost stays `null` once either side is `null`
 * (an unknown price is never counted as free).
 */
export function addUsage(a: RoleUsage, b: RoleUsage): RoleUsage {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    cachedCalls: a.cachedCalls + b.cachedCalls,
  };
}

/** Sums usages per role; a role appears once it has at least one entry. */
export function sumUsageByRole(usages: Array<Record<string, RoleUsage>>): Record<string, RoleUsage> {
  const total: Record<string, RoleUsage> = {};
  for (const usage of usages) {
    for (const [role, value] of Object.entries(usage)) total[role] = addUsage(total[role] ?? emptyUsage(), value);
  }
  return total;
}

/**
 * Per-role usage of one sample, from its `model-call` and `embedding-call` events (those replayed from another run by
 * `rescore` are that run's calls and are left out). Token counts a provider did not
 * report (`null`) add 0 tokens; a call without a known cost makes the role's cost `null`.
 */
export function usageFromEvents(events: TranscriptEvent[]): Record<string, RoleUsage> {
  const usage: Record<string, RoleUsage> = {};
  for (const event of events) {
    if (!isCallOfThisRun(event)) continue;
    usage[event.role] = addUsage(usage[event.role] ?? emptyUsage(), usageOfCall(event));
  }
  return usage;
}

/**
 * The usage of one `model-call` or `embedding-call` event (unreported tokens count 0, an
 * embedding has no output tokens; an unknown cost stays `null`).
 */
export function usageOfCall(event: ModelCallEvent | EmbeddingCallEvent): RoleUsage {
  return {
    calls: 1,
    inputTokens: event.usage.inputTokens ?? 0,
    outputTokens: 'outputTokens' in event.usage ? (event.usage.outputTokens ?? 0) : 0,
    costUsd: event.costUsd,
    cachedCalls: event.cached ? 1 : 0,
  };
}

/** Total cost over roles; `null` if any role's cost is unknown, 0 when nothing was called. */
export function totalCost(usage: Record<string, RoleUsage>): number | null {
  let total = 0;
  for (const value of Object.values(usage)) {
    if (value.costUsd === null) return null;
    total += value.costUsd;
  }
  return total;
}

/**
 * Narrows an event to a `model-call` event. The parsed union guarantees the shape at run time;
 * the guard exists because the generic event types are typed as `string`, which defeats
 * TypeScript's narrowing on `type`.
 */
export function isModelCallEvent(event: TranscriptEvent): event is ModelCallEvent {
  return event.type === 'model-call';
}

/**
 * A model or embedding call this run made (not one `rescore` replayed from its source run):
 * what usage, cost and progress count.
 */
export function isCallOfThisRun(event: TranscriptEvent): event is ModelCallEvent | EmbeddingCallEvent {
  return (isModelCallEvent(event) || event.type === 'embedding-call') && event.replayedFrom === undefined;
}
