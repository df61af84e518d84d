import { zodIssueText } from '../../../spec/zod-issue-text.js';
import { pacScenarioFileSchema } from '../scenario-schema.js';
import { checkAgentMemories, checkAgentPolicies } from './check-agent-parts.js';
import { checkRequirementsPart, checkScenarioPart } from './check-task-parts.js';
import {
  type PacAgentFieldNames,
  type PacGenerationStage,
  type PacRuleIssue,
  type PacRuleOptions,
  pacRuleIssue,
} from './pac-rule-issue.js';

function stageOfPath(path: readonly PropertyKey[]): { stage: PacGenerationStage; agent?: string } {
  const [, second, third] = path.map(String);
  if (second !== undefined && /^agent_[a-z]$/.test(second)) {
    if (third === 'context' || third === 'memory') return { stage: 'memory', agent: second };
    if (third === 'privacy_policy' || third === 'privacy_constraint') return { stage: 'constraint', agent: second };
    return { stage: 'scenario' };
  }
  if (second === 'goal' && third === 'requirements') return { stage: 'requirements' };
  return { stage: 'scenario' };
}

/**
 * Checks a whole scenario file (the parsed JSON, either field spelling) against the generation
 * rules (pacbench.md §11): the file schema, then every stage's rules. Pure: no I/O, same input,
 * same issues, in a stable order (scenario, requirements, then per agent memory and constraint).
 * An empty list means the scenario passes.
 */
export function checkPacScenario(file: unknown, rules: PacRuleOptions = {}): PacRuleIssue[] {
  const parsed = pacScenarioFileSchema.safeParse(file);
  if (!parsed.success) {
    return parsed.error.issues.map((zodIssue) => {
      const where = stageOfPath(zodIssue.path);
      const path = zodIssue.path.map(String).join('.') || '(file)';
      return pacRuleIssue({ path, rule: 'schema', message: zodIssueText({ issue: zodIssue, input: file }), ...where });
    });
  }
  const { scenario } = parsed.data;
  const requirements = scenario.goal.requirements;
  const issues: PacRuleIssue[] = [
    ...checkScenarioPart(
      {
        description: scenario.description,
        goal: scenario.goal.content,
        profiles: scenario.agents.map(({ key, agent }) => ({ agent: key, ...agent.profile })),
      },
      rules,
    ),
    ...checkRequirementsPart(requirements, rules),
  ];
  for (const { key, agent } of scenario.agents) {
    const fields: PacAgentFieldNames = {
      memory: agent.context === undefined ? 'memory' : 'context',
      policy: agent.privacy_policy === undefined ? 'privacy_constraint' : 'privacy_policy',
      index: 'context_idx',
    };
    const memories = agent.context ?? agent.memory ?? [];
    const rawPolicies = agent.privacy_policy ?? agent.privacy_constraint ?? [];
    if (rawPolicies.some((policy) => policy.context_idx === undefined)) fields.index = 'memory_idx';
    issues.push(...checkAgentMemories({ agent: key, memories, requirementCount: requirements.length, fields }));
    issues.push(
      ...checkAgentPolicies({
        agent: key,
        memories,
        policies: rawPolicies.map((policy) => ({
          content: policy.content,
          violation_keywords: policy.violation_keywords,
          memory_idx: policy.context_idx ?? policy.memory_idx ?? [],
          reason: policy.reason,
        })),
        task: { goal: scenario.goal.content, requirements },
        ...(rules.policyType === undefined ? {} : { policyType: rules.policyType }),
        fields,
      }),
    );
  }
  return issues;
}
