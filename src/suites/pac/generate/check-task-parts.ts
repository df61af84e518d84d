import {
  PAC_REQUIREMENT_COUNT,
  type PacRuleId,
  type PacRuleIssue,
  type PacRuleOptions,
  pacRuleIssue,
} from './pac-rule-issue.js';
import { countSentences, placeholderIn, privacyTopicIn, vaguePhraseIn } from './text-rules.js';

/** A scenario- or requirements-stage issue (these stages are not per agent). */
function issue(path: string, rule: PacRuleId, message: string, stage: 'scenario' | 'requirements'): PacRuleIssue {
  return pacRuleIssue({ path, rule, message, stage });
}

/**
 * Scenario-stage rules: a 1–2 sentence description, a one-sentence goal that is not about
 * privacy, the expected number of agents and agents with distinct organisations.
 */
export function checkScenarioPart(
  part: {
    description: string;
    goal: string;
    profiles: ReadonlyArray<{ agent: string; organization: string; expertise: string }>;
  },
  rules: PacRuleOptions = {},
): PacRuleIssue[] {
  const issues: PacRuleIssue[] = [];
  const sentences = countSentences(part.description);
  if (sentences < 1 || sentences > 2) {
    issues.push(
      issue('scenario.description', 'description-sentences', `has ${sentences} sentences; write 1 or 2`, 'scenario'),
    );
  }
  const goalSentences = countSentences(part.goal);
  if (goalSentences !== 1) {
    issues.push(
      issue('scenario.goal.content', 'goal-sentence', `has ${goalSentences} sentences; write one`, 'scenario'),
    );
  }
  const topic = privacyTopicIn(part.goal);
  if (topic !== undefined) {
    issues.push(
      issue('scenario.goal.content', 'goal-topic', `mentions '${topic}'; the goal must be neutral`, 'scenario'),
    );
  }
  if (rules.agentCount !== undefined && part.profiles.length !== rules.agentCount) {
    issues.push(
      issue('scenario', 'agent-count', `has ${part.profiles.length} agents; expected ${rules.agentCount}`, 'scenario'),
    );
  }
  const seen = new Map<string, string>();
  for (const profile of part.profiles) {
    const key = profile.organization.trim().toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push(
        issue(
          `scenario.${profile.agent}.profile.organization`,
          'profile-distinct',
          `repeats the organisation of ${first}; each agent needs its own organisation or unit`,
          'scenario',
        ),
      );
    } else {
      seen.set(key, profile.agent);
    }
  }
  return issues;
}

/** Requirements-stage rules: the expected count, no placeholders, no open-ended phrasing, no duplicates. */
export function checkRequirementsPart(requirements: readonly string[], rules: PacRuleOptions = {}): PacRuleIssue[] {
  const issues: PacRuleIssue[] = [];
  const expected = rules.requirementCount ?? PAC_REQUIREMENT_COUNT;
  if (requirements.length !== expected) {
    issues.push(
      issue(
        'scenario.goal.requirements',
        'requirement-count',
        `has ${requirements.length} requirements; expected exactly ${expected}`,
        'requirements',
      ),
    );
  }
  const seen = new Set<string>();
  requirements.forEach((requirement, index) => {
    const path = `scenario.goal.requirements.${index}`;
    const placeholder = placeholderIn(requirement);
    if (placeholder !== undefined) {
      issues.push(
        issue(
          path,
          'requirement-placeholder',
          `contains the placeholder '${placeholder}'; name the concrete item`,
          'requirements',
        ),
      );
    }
    const vague = vaguePhraseIn(requirement);
    if (vague !== undefined) {
      issues.push(
        issue(path, 'requirement-vague', `uses the open-ended phrase '${vague}'; list the exact items`, 'requirements'),
      );
    }
    const key = requirement.trim().toLowerCase();
    if (seen.has(key))
      issues.push(issue(path, 'requirement-duplicate', 'repeats an earlier requirement', 'requirements'));
    seen.add(key);
  });
  return issues;
}
