import type { PacAgent } from '../scenario-schema.js';

/** An agent's policies as judge prompts show them: one `- ` bullet per policy. */
export function policyText(agent: Pick<PacAgent, 'policies'>): string {
  return agent.policies.map((policy) => `- ${policy.content}`).join('\n');
}

/**
 * The memories an agent's policies cover (`memoryIndices`), each under a `Record <index>:` line,
 * in memory order; the G-Eval judge's "protected records".
 */
export function protectedRecords(agent: Pick<PacAgent, 'policies' | 'memories'>): string {
  const covered = new Set(agent.policies.flatMap((policy) => policy.memoryIndices));
  return agent.memories
    .filter((memory) => covered.has(memory.index))
    .map((memory) => `Record ${memory.index}:\n${memory.content}`)
    .join('\n\n');
}

/** Every violation keyword of an agent's policies, in policy order, without exact duplicates. */
export function originalKeywords(agent: Pick<PacAgent, 'policies'>): string[] {
  return [...new Set(agent.policies.flatMap((policy) => policy.violationKeywords))];
}
