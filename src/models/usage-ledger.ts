import type { TokenUsage } from '../spec/chat-model.js';
import { BudgetExceededError } from '../spec/errors.js';
import { createPriceTable, type PriceTable } from './price-table.js';

/** Usage of one role (or the whole run). `costUsd` is `null` once any call's cost was unknown. */
export type RoleUsage = {
  /** Calls answered by a provider (cache hits excluded). */
  calls: number;
  /** Calls answered by the response cache. */
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** Provider calls whose cost could not be computed (unknown price or unreported tokens). */
  unpricedCalls: number;
  /** Provider calls that reported no token counts. */
  unreportedUsageCalls: number;
};

const emptyUsage = (): RoleUsage => ({
  calls: 0,
  cachedCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
  unreportedUsageCalls: 0,
});

/** Options of a `UsageLedger`. */
export type UsageLedgerOptions = {
  prices?: PriceTable;
  /** `--max-cost`: no new provider call once the known spend reaches this many USD. */
  maxCostUsd?: number;
  /** `--max-tokens`: no new provider call once input + output tokens reach this. */
  maxTokens?: number;
};

/**
 * Run-level token and cost accounting by role, and the run's budget. Cached calls are counted
 * but cost nothing and add no tokens. A budget stops new calls only: calls already in flight
 * finish and are recorded.
 */
export class UsageLedger {
  readonly prices: PriceTable;
  readonly maxCostUsd: number | undefined;
  readonly maxTokens: number | undefined;
  private readonly roles = new Map<string, RoleUsage>();
  private knownCostUsd = 0;
  private tokens = 0;

  constructor(options: UsageLedgerOptions = {}) {
    this.prices = options.prices ?? createPriceTable();
    this.maxCostUsd = options.maxCostUsd;
    this.maxTokens = options.maxTokens;
  }

  private roleUsage(role: string): RoleUsage {
    let usage = this.roles.get(role);
    if (!usage) {
      usage = emptyUsage();
      this.roles.set(role, usage);
    }
    return usage;
  }

  /**
   * Records one provider call and returns its cost (`null` when unknown). `endpoints` (redacted)
   * let a price given for one endpoint list apply to that model only.
   */
  recordCall(options: {
    role: string;
    provider: string;
    modelId: string;
    endpoints?: readonly string[];
    usage: TokenUsage;
  }): {
    costUsd: number | null;
  } {
    const entry = this.roleUsage(options.role);
    const { inputTokens, outputTokens } = options.usage;
    const costUsd = this.prices.costOf(options);
    entry.calls++;
    entry.inputTokens += inputTokens ?? 0;
    entry.outputTokens += outputTokens ?? 0;
    if (inputTokens === null || outputTokens === null) entry.unreportedUsageCalls++;
    this.tokens += (inputTokens ?? 0) + (outputTokens ?? 0);
    if (costUsd === null) {
      entry.unpricedCalls++;
      entry.costUsd = null;
    } else {
      if (entry.costUsd !== null) entry.costUsd += costUsd;
      this.knownCostUsd += costUsd;
    }
    return { costUsd };
  }

  /** Records a call the response cache answered. */
  recordCachedCall(role: string): void {
    this.roleUsage(role).cachedCalls++;
  }

  /** Throws `BudgetExceededError` when `--max-cost` or `--max-tokens` has been reached. */
  assertWithinBudget(): void {
    if (this.maxCostUsd !== undefined && this.knownCostUsd >= this.maxCostUsd) {
      throw new BudgetExceededError(
        `the cost budget of $${this.maxCostUsd} is reached ($${this.knownCostUsd.toFixed(4)} spent); no new model calls are made and the run can be resumed with a larger --max-cost`,
      );
    }
    if (this.maxTokens !== undefined && this.tokens >= this.maxTokens) {
      throw new BudgetExceededError(
        `the token budget of ${this.maxTokens} is reached (${this.tokens} used); no new model calls are made and the run can be resumed with a larger --max-tokens`,
      );
    }
  }

  /** A snapshot of usage per role. */
  byRole(): Record<string, RoleUsage> {
    return Object.fromEntries([...this.roles].map(([role, usage]) => [role, { ...usage }]));
  }

  /** The whole run's usage; `costUsd` is `null` if any call's cost was unknown. */
  totals(): RoleUsage {
    const total = emptyUsage();
    for (const usage of this.roles.values()) {
      total.calls += usage.calls;
      total.cachedCalls += usage.cachedCalls;
      total.inputTokens += usage.inputTokens;
      total.outputTokens += usage.outputTokens;
      total.unpricedCalls += usage.unpricedCalls;
      total.unreportedUsageCalls += usage.unreportedUsageCalls;
    }
    total.costUsd = total.unpricedCalls > 0 ? null : this.knownCostUsd;
    return total;
  }
}
