import { causeLabel } from '../spec/error-cause.js';
import type { JudgeHealth, SampleRecord } from '../spec/run-record.js';

const TOP_ERRORS = 5;

/**
 * Judge health over a run's latest records: per judge (`<template id>@<version>`) and judge model,
 * how many calls gave pass, fail, not-applicable and error, and the most common error causes. In
 * order of first appearance. Records without `judgments` (deterministic judges, older records)
 * contribute nothing.
 */
export function summarizeJudges(records: readonly SampleRecord[]): JudgeHealth[] {
  const byJudge = new Map<string, JudgeHealth & { errorCounts: Map<string, number> }>();
  for (const record of records) {
    for (const judgment of record.judgments ?? []) {
      const key = `${judgment.judge}\u0000${judgment.model}`;
      let health = byJudge.get(key);
      if (!health) {
        health = {
          judge: judgment.judge,
          model: judgment.model,
          calls: 0,
          pass: 0,
          fail: 0,
          notApplicable: 0,
          error: 0,
          topErrors: [],
          errorCounts: new Map(),
        };
        byJudge.set(key, health);
      }
      health.calls += 1;
      if (judgment.verdict === 'pass') health.pass += 1;
      else if (judgment.verdict === 'fail') health.fail += 1;
      else if (judgment.verdict === 'not-applicable') health.notApplicable += 1;
      else {
        health.error += 1;
        const message = judgment.error === undefined ? 'the judgment failed' : causeLabel(judgment.error);
        health.errorCounts.set(message, (health.errorCounts.get(message) ?? 0) + 1);
      }
    }
  }
  return [...byJudge.values()].map(({ errorCounts, ...health }) => ({
    ...health,
    topErrors: [...errorCounts]
      .map(([message, count]) => ({ message, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, TOP_ERRORS),
  }));
}

/** One line per run for the terminal: `judge health: leak@1 (openai:x) 10 pass, 2 fail, 0 n/a, 3 error (…)`. */
export function judgeHealthLine(judges: readonly JudgeHealth[]): string | undefined {
  if (judges.length === 0) return undefined;
  const parts = judges.map((health) => {
    const top = health.topErrors[0];
    const errors = `${health.error} error${top === undefined ? '' : ` (${top.message}${health.topErrors.length > 1 ? ', …' : ''})`}`;
    return `${health.judge} on ${health.model}: ${health.pass} pass, ${health.fail} fail, ${health.notApplicable} n/a, ${errors}`;
  });
  return `judge health: ${parts.join('; ')}`;
}
