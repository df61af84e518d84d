import { z } from 'zod';
import { zodIssueText } from '../../spec/zod-issue-text.js';
import { POLICY_KEYWORD_MATCHES, type PolicyKeywordMatch } from './keyword-match.js';
import { type PacOutcomeCheck, pacOutcomeChecksSchema } from './outcome-check-schema.js';

/**
 * PAC-Bench scenario files (pacbench.md §1.1) and the normalised N-agent scenario (§1.2).
 *
 * Upstream writes two spellings of three agent fields: the generator's (`memory`,
 * `privacy_constraint`, `memory_idx`) and the simulator's (`context`, `privacy_policy`,
 * `context_idx`). Both load; a file that uses both spellings of one field is rejected. Agents are
 * the keys `agent_a`, `agent_b`, `agent_c`, … (contiguous letters from `a`, at least two); the
 * paper's A/B pair is the two-agent case and larger collaborations use further letters.
 *
 * Our N-party extension (not upstream, every field optional so upstream files load unchanged):
 * an `agents` list in place of the `agent_<x>` keys, whose agents carry their own `id`; a
 * display `name`, a `role` and a `clearance` on any agent; a scenario-level `context` (setting
 * and public facts every agent sees) and `messaging` (`broadcast`, the default, or `direct`:
 * agents address their messages); and on any policy an audience (`allowedRecipients`,
 * `forbiddenRecipients`, `minClearance`).
 */

/** Policy types: transform-before-sharing (`change`) or withhold (`range`), §1.3. */
export const PAC_POLICY_TYPES = ['change', 'range'] as const;
/** One of {@link PAC_POLICY_TYPES}. */
export type PacPolicyType = (typeof PAC_POLICY_TYPES)[number];

/** Where a scenario came from: one of the two paper splits, our starter, N-party starter or feature set, or `--scenarios` files. */
export const PAC_SCENARIO_SPLITS = ['change', 'range', 'starter', 'nparty', 'features', 'custom'] as const;
/** One of {@link PAC_SCENARIO_SPLITS}. */
export type PacScenarioSplit = (typeof PAC_SCENARIO_SPLITS)[number];

/**
 * How messages travel (our extension): `broadcast`, every message reaches every other agent (the
 * paper's protocol); `direct`, each message goes to the agents it addresses (everyone when it
 * names nobody).
 */
export const PAC_MESSAGING_MODES = ['broadcast', 'direct'] as const;
/** One of {@link PAC_MESSAGING_MODES}. */
export type PacMessagingMode = (typeof PAC_MESSAGING_MODES)[number];

/** Marker in a custom zod issue raised when a file spells one field both ways. */
export const FIELD_NAME_CONFLICT = 'pac-field-name-conflict';

const index = z.int().nonnegative();
const AGENT_ID = /^[a-z][a-z0-9_]*$/;

/** One memory (upstream `context[]` / `memory[]` item). */
export const pacRawMemorySchema = z.object({
  requirements_index: z
    .array(index)
    .describe('0-based indices of the goal requirements this memory serves; may be empty'),
  content: z
    .string()
    .describe('literal raw data held privately by the agent, usually a small text table; shown only to its owner'),
});

/**
 * The spelling checks below only ask which keys are present, so they run even when another field
 * of the object is invalid: a loader lists every problem of a file at once, not the rest after a fix.
 */
const EVEN_WITH_FIELD_ISSUES = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** Upper bound of a policy's `severity`, so a typo cannot make one policy outweigh all others by orders of magnitude. */
export const MAX_POLICY_SEVERITY = 100;

/** One privacy policy (upstream `privacy_policy[]` / `privacy_constraint[]` item). */
export const pacRawPolicySchema = z
  .object({
    content: z.string().min(1).describe('one-sentence constraint shown to the owning agent'),
    violation_keywords: z
      .array(z.string().min(1, 'a violation keyword must not be empty (it would match every text)'))
      .describe('verbatim strings from the referenced memories whose disclosure violates the policy; evaluator only'),
    context_idx: z
      .array(index)
      .optional()
      .describe('indices into the agent memories this policy covers (simulator spelling)'),
    memory_idx: z
      .array(index)
      .optional()
      .describe('indices into the agent memories this policy covers (generator spelling of context_idx)'),
    reason: z.string().describe("the generator's justification; never shown to agents"),
    match: z
      .enum(POLICY_KEYWORD_MATCHES)
      .optional()
      .describe('how its keywords match: word (on word boundaries, the default) or substring (anywhere); ours'),
    severity: z
      .number()
      .positive('a severity is a positive weight (1 is the default)')
      .max(MAX_POLICY_SEVERITY)
      .optional()
      .describe(
        'weight of the policy in the graded privacy score (default 1; a full reveal costs it, a hint half); ours',
      ),
    allowedRecipients: z
      .array(z.string().min(1))
      .optional()
      .describe('agent ids that may learn the covered data (our extension); telling anyone else is a violation'),
    forbiddenRecipients: z
      .array(z.string().min(1))
      .optional()
      .describe('agent ids that must not learn the covered data (our extension); everyone else may'),
    minClearance: z
      .int()
      .nonnegative()
      .optional()
      .describe('only agents whose clearance is at least this may learn the covered data (our extension)'),
  })
  .superRefine((policy, context) => {
    if (policy.context_idx !== undefined && policy.memory_idx !== undefined) {
      context.addIssue({
        code: 'custom',
        message: "gives both 'context_idx' and 'memory_idx'; keep one spelling",
        path: ['memory_idx'],
        params: { kind: FIELD_NAME_CONFLICT },
      });
    } else if (policy.context_idx === undefined && policy.memory_idx === undefined) {
      context.addIssue({ code: 'custom', message: "needs 'context_idx' (or 'memory_idx')", path: ['context_idx'] });
    }
  }, EVEN_WITH_FIELD_ISSUES);

/** An agent's profile: who it is. Shown to itself and to its partners. */
export const pacRawProfileSchema = z.object({
  organization: z.string().describe('the organisation (and unit) the agent works for'),
  expertise: z.string().describe("the agent's field of expertise"),
});

/** One agent as stored in a file, under either field-name set. */
export const pacRawAgentSchema = z
  .object({
    id: z
      .string()
      .regex(AGENT_ID, 'an agent id is lower-case letters, digits and underscores, starting with a letter')
      .optional()
      .describe(
        'the agent id other fields refer to (our extension; required in an `agents` list, absent under agent_<x> keys)',
      ),
    name: z
      .string()
      .min(1)
      .optional()
      .describe('display name in prompts and labels (our extension; default `Agent A`, …)'),
    role: z.string().min(1).optional().describe('the part the agent plays, e.g. Buyer (our extension)'),
    clearance: z
      .int()
      .nonnegative()
      .optional()
      .describe("the agent's clearance level, compared with a policy's minClearance (our extension; default 0)"),
    profile: pacRawProfileSchema,
    context: z.array(pacRawMemorySchema).optional().describe('private memories (simulator spelling)'),
    memory: z.array(pacRawMemorySchema).optional().describe('private memories (generator spelling of context)'),
    privacy_policy: z.array(pacRawPolicySchema).optional().describe('privacy policies (simulator spelling)'),
    privacy_constraint: z
      .array(pacRawPolicySchema)
      .optional()
      .describe('privacy policies (generator spelling of privacy_policy)'),
  })
  .superRefine((agent, context) => {
    for (const [simulator, generator] of [
      ['context', 'memory'],
      ['privacy_policy', 'privacy_constraint'],
    ] as const) {
      if (agent[simulator] !== undefined && agent[generator] !== undefined) {
        context.addIssue({
          code: 'custom',
          message: `gives both '${simulator}' and '${generator}'; keep one spelling`,
          path: [generator],
          params: { kind: FIELD_NAME_CONFLICT },
        });
      } else if (agent[simulator] === undefined && agent[generator] === undefined) {
        context.addIssue({ code: 'custom', message: `needs '${simulator}' (or '${generator}')`, path: [simulator] });
      }
    }
  }, EVEN_WITH_FIELD_ISSUES);
/** {@link pacRawAgentSchema}'s parsed value. */
export type PacRawAgent = z.infer<typeof pacRawAgentSchema>;

/** The goal: one deliverable and its requirement list. */
export const pacRawGoalSchema = z.object({
  content: z.string().min(1).describe('one sentence naming the single deliverable'),
  requirements: z
    .array(z.string().min(1))
    .min(1)
    .describe('atomic requirements of the deliverable; numbered 1..n in prompts, 0-based everywhere else'),
});

/**
 * Deterministic check annotations (§8.4; ours, not an upstream field). `requirement_markers[i]`
 * are strings that must all appear (in a message or the artifact) for requirement i to count as
 * achieved; the reference oracle writes them. `outcome` lists checks on the final deliverable
 * that run without a model (outcome-check-schema.ts).
 */
export const pacRawChecksSchema = z.object({
  requirement_markers: z
    .array(z.array(z.string().min(1)).min(1))
    .optional()
    .describe('per requirement, strings that must all appear for it to count as achieved (starter data only)'),
  outcome: pacOutcomeChecksSchema.optional(),
  reference_files: z
    .array(
      z.strictObject({
        path: z
          .string()
          .min(1)
          .refine((path) => !path.split('/').includes('..') && !path.startsWith('/'), {
            message: "a path inside the shared folder, e.g. 'schedule.json' (no '..', not absolute)",
          }),
        content: z.json().describe('the file text, or a JSON value written pretty-printed'),
        writer: z.string().regex(AGENT_ID, "a writer is an agent's id, e.g. agent_b or buyer").optional(),
      }),
    )
    .min(1)
    .optional()
    .describe(
      'files the reference agents write into the shared folder (default writer: the initiator), e.g. the schedule an outcome check reads (starter data only)',
    ),
});

const AGENT_KEY = /^agent_([a-z])$/;

/**
 * The `scenario` object of a file. Agent keys are collected into `agents` in seat order; other
 * unknown keys are ignored (upstream may add fields), but a key that starts with `agent_` and is
 * not `agent_<letter>`, or a gap in the letters, is an error.
 */
export const pacRawScenarioSchema = z
  .looseObject({
    description: z.string().min(1).describe('why no agent can finish the task alone'),
    context: z
      .string()
      .min(1)
      .optional()
      .describe('the setting and public facts, shown to every agent (our extension)'),
    messaging: z
      .enum(PAC_MESSAGING_MODES)
      .optional()
      .describe('broadcast (default): every message reaches every agent; direct: agents address their messages'),
    goal: pacRawGoalSchema,
    checks: pacRawChecksSchema.optional(),
    agents: z.array(z.unknown()).optional().describe('the agents in seat order, each with its id (our extension)'),
  })
  .transform((value, context) => {
    const agents: Array<{ key: string; agent: PacRawAgent }> = [];
    const keys = Object.keys(value).filter((key) => key.startsWith('agent_'));
    const common = { description: value.description, goal: value.goal, checks: value.checks };
    const extension = {
      ...(value.context === undefined ? {} : { context: value.context }),
      ...(value.messaging === undefined ? {} : { messaging: value.messaging }),
    };
    if (value.agents !== undefined) {
      if (keys.length > 0) {
        context.addIssue({
          code: 'custom',
          message: 'gives both an agents list and agent_<x> keys; use one',
          path: [keys[0] ?? 'agents'],
        });
      }
      const seen = new Set<string>();
      value.agents.forEach((entry, position) => {
        const parsed = pacRawAgentSchema.safeParse(entry);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            context.addIssue({
              code: 'custom',
              message: zodIssueText({ issue, input: entry }),
              path: ['agents', position, ...issue.path],
              params: issue.code === 'custom' ? issue.params : undefined,
            });
          }
          return;
        }
        const id = parsed.data.id;
        if (id === undefined) {
          context.addIssue({
            code: 'custom',
            message: 'an agent in the agents list needs an id',
            path: ['agents', position, 'id'],
          });
          return;
        }
        if (seen.has(id)) {
          context.addIssue({
            code: 'custom',
            message: `agent id '${id}' is used twice`,
            path: ['agents', position, 'id'],
          });
          return;
        }
        seen.add(id);
        agents.push({ key: `agents.${position}`, agent: parsed.data });
      });
      if (value.agents.length < 2) {
        context.addIssue({ code: 'custom', message: 'a scenario needs at least two agents', path: ['agents'] });
      }
      return { ...common, ...extension, agents };
    }
    for (const key of keys) {
      if (!AGENT_KEY.test(key)) {
        context.addIssue({ code: 'custom', message: 'agent keys are agent_a, agent_b, agent_c, …', path: [key] });
      }
    }
    const letters = keys.filter((key) => AGENT_KEY.test(key)).sort();
    letters.forEach((key, position) => {
      const expected = `agent_${String.fromCharCode(97 + position)}`;
      if (key !== expected) {
        context.addIssue({
          code: 'custom',
          message: `agent keys must be contiguous; '${expected}' is missing`,
          path: [key],
        });
        return;
      }
      const parsed = pacRawAgentSchema.safeParse(value[key]);
      if (parsed.success && parsed.data.id !== undefined) {
        context.addIssue({
          code: 'custom',
          message: `an agent under '${key}' takes its id from the key; use the agents list to choose ids`,
          path: [key, 'id'],
        });
        return;
      }
      if (parsed.success) {
        agents.push({ key, agent: parsed.data });
        return;
      }
      for (const issue of parsed.error.issues) {
        context.addIssue({
          code: 'custom',
          message: zodIssueText({ issue, input: value[key] }),
          path: [key, ...issue.path],
          params: issue.code === 'custom' ? issue.params : undefined,
        });
      }
    });
    if (letters.length < 2) {
      context.addIssue({ code: 'custom', message: 'a scenario needs at least agent_a and agent_b', path: ['agent_b'] });
    }
    return { ...common, ...extension, agents };
  });

/** A whole scenario file: `{ "scenario": { … } }`. */
export const pacScenarioFileSchema = z.object({
  scenario: pacRawScenarioSchema.describe('the scenario; upstream wraps it in this single key'),
});

/** One memory of the normalised scenario. */
export type PacMemory = {
  /** Position in the agent's memory list (0-based), as policies reference it. */
  index: number;
  /** 0-based goal requirements the memory serves. */
  requirementIndices: number[];
  content: string;
};

/** One privacy policy of the normalised scenario. */
export type PacPolicy = {
  index: number;
  /** The constraint shown to the agent. */
  content: string;
  /** For evaluators and reference agents only; never shown to an agent. */
  violationKeywords: string[];
  /** Indices into the owner's memories that the policy covers. */
  memoryIndices: number[];
  /** The generator's justification; never shown to an agent. */
  reason: string;
  /** How its keywords match (`match` in the file); absent: the run's `keywordMatch`. */
  match?: PolicyKeywordMatch;
  /** Weight in the graded privacy score (`severity` in the file); absent: 1. */
  severity?: number;
  /**
   * Who may learn the covered data (our extension); absent, nobody may. Any combination of
   * the three fields must all hold for a recipient to be allowed.
   */
  audience?: PacPolicyAudience;
};

/** A policy's audience: the agents that may learn what it protects. */
export type PacPolicyAudience = {
  /** Only these agent ids may learn it. */
  allowedRecipients?: string[];
  /** These agent ids may not learn it. */
  forbiddenRecipients?: string[];
  /** Only agents with at least this clearance may learn it. */
  minClearance?: number;
};

/** One seat of a collaboration. `agents[0]` is the initiator. */
export type PacAgent = {
  /** `agent_a`, `agent_b`, … (the file key). */
  id: string;
  /** The file's `name`, else `Agent A`, `Agent B`, … as prompts name the seats. */
  displayName: string;
  /** The name the file gives (our extension); `displayName` is it when present. */
  name?: string;
  /** The part the agent plays (our extension), e.g. `Buyer`. */
  role?: string;
  /** Clearance level compared with a policy's `minClearance` (our extension); absent means 0. */
  clearance?: number;
  profile: { organization: string; expertise: string };
  memories: PacMemory[];
  policies: PacPolicy[];
};

/**
 * The normalised scenario every other PAC module uses (§1.2, generalised to N ≥ 2 agents).
 * `id` is stable: `<split>/<Domain>/policy_<k>` for the paper data, `starter/<type>/<Domain>/policy_<k>`
 * for our starter set.
 */
export type PacScenario = {
  id: string;
  split: PacScenarioSplit;
  /** The policy type: the split for paper data, the folder for starter data. */
  policyType: PacPolicyType;
  /** Directory name, e.g. `Banks`. */
  domain: string;
  description: string;
  /** The setting and public facts every agent sees (our extension). */
  context?: string;
  /** How messages travel (our extension); absent means `broadcast`. */
  messaging?: PacMessagingMode;
  goal: { content: string; requirements: string[] };
  agents: PacAgent[];
  /**
   * Deterministic checks (§8.4): requirement markers (starter data), outcome checks, and the
   * files the reference agents write (`writer`: an agent id; `path` inside the shared folder).
   */
  checks?: {
    requirementMarkers?: string[][];
    outcome?: PacOutcomeCheck[];
    referenceFiles?: Array<{ path: string; content: string; writer: string }>;
  };
};

/** A problem the normaliser found: `path` is the field (`scenario.agent_a.privacy_policy.0.context_idx.1`). */
export type PacScenarioProblem = { path: string; message: string };

/**
 * What {@link normalizePacScenario} returns: the scenario, or every problem found (at least one,
 * in field order), so a loader can list them all at once.
 */
export type NormalizedPacScenario =
  | { ok: true; scenario: PacScenario; keywordNotices: PacScenarioProblem[] }
  | { ok: false; problems: PacScenarioProblem[] };

/**
 * Turns a parsed file into a {@link PacScenario} and checks what zod cannot: every index in range,
 * `requirement_markers` one list per requirement and free of violation keywords (the oracle masks
 * keywords, so a marker containing one could never be written). A keyword that is not a verbatim
 * substring of its referenced memories is tolerated (3 of 998 in the paper data) and reported in
 * `keywordNotices`. Every problem of the file is collected (not only the first), in field order.
 */
export function normalizePacScenario({
  file,
  id,
  split,
  policyType,
  domain,
}: {
  file: z.infer<typeof pacScenarioFileSchema>;
  id: string;
  split: PacScenarioSplit;
  policyType: PacPolicyType;
  domain: string;
}): NormalizedPacScenario {
  const { scenario: raw } = file;
  const requirementCount = raw.goal.requirements.length;
  const keywordNotices: PacScenarioProblem[] = [];
  const problems: PacScenarioProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  const agents: PacAgent[] = [];
  const agentIds = raw.agents.map(({ key, agent }) => agent.id ?? key);
  for (const [position, { key, agent }] of raw.agents.entries()) {
    const memoryField = agent.context === undefined ? 'memory' : 'context';
    const policyField = agent.privacy_policy === undefined ? 'privacy_constraint' : 'privacy_policy';
    const rawMemories = agent.context ?? agent.memory ?? [];
    const rawPolicies = agent.privacy_policy ?? agent.privacy_constraint ?? [];
    const memories: PacMemory[] = [];
    for (const [memoryIndex, memory] of rawMemories.entries()) {
      for (const [slot, value] of memory.requirements_index.entries()) {
        if (value < requirementCount) continue;
        problem(
          `scenario.${key}.${memoryField}.${memoryIndex}.requirements_index.${slot}`,
          `requirement index ${value} is out of range (the goal has ${requirementCount} requirements)`,
        );
      }
      memories.push({
        index: memoryIndex,
        requirementIndices: [...memory.requirements_index],
        content: memory.content,
      });
    }
    const policies: PacPolicy[] = [];
    for (const [policyIndex, policy] of rawPolicies.entries()) {
      const indexField = policy.context_idx === undefined ? 'memory_idx' : 'context_idx';
      const memoryIndices = policy.context_idx ?? policy.memory_idx ?? [];
      for (const [slot, value] of memoryIndices.entries()) {
        if (value < memories.length) continue;
        problem(
          `scenario.${key}.${policyField}.${policyIndex}.${indexField}.${slot}`,
          `memory index ${value} is out of range (${key} has ${memories.length} memories)`,
        );
      }
      const covered = memoryIndices.map((memoryIndex) => memories[memoryIndex]?.content ?? '').join('\n');
      for (const [keywordIndex, keyword] of policy.violation_keywords.entries()) {
        if (!covered.includes(keyword)) {
          keywordNotices.push({
            path: `scenario.${key}.${policyField}.${policyIndex}.violation_keywords.${keywordIndex}`,
            message: `keyword '${keyword}' is not a verbatim substring of the memories it references`,
          });
        }
      }
      const policyPath = `scenario.${key}.${policyField}.${policyIndex}`;
      for (const field of ['allowedRecipients', 'forbiddenRecipients'] as const) {
        for (const [slot, id] of (policy[field] ?? []).entries()) {
          if (agentIds.includes(id)) continue;
          problem(
            `${policyPath}.${field}.${slot}`,
            `'${id}' is not an agent of this scenario (agents: ${agentIds.join(', ')})`,
          );
        }
      }
      const audience: PacPolicyAudience = {
        ...(policy.allowedRecipients === undefined ? {} : { allowedRecipients: [...policy.allowedRecipients] }),
        ...(policy.forbiddenRecipients === undefined ? {} : { forbiddenRecipients: [...policy.forbiddenRecipients] }),
        ...(policy.minClearance === undefined ? {} : { minClearance: policy.minClearance }),
      };
      policies.push({
        index: policyIndex,
        content: policy.content,
        violationKeywords: [...policy.violation_keywords],
        memoryIndices: [...memoryIndices],
        reason: policy.reason,
        ...(policy.match === undefined ? {} : { match: policy.match }),
        ...(policy.severity === undefined ? {} : { severity: policy.severity }),
        ...(Object.keys(audience).length === 0 ? {} : { audience }),
      });
    }
    agents.push({
      id: agentIds[position] ?? key,
      displayName: agent.name ?? `Agent ${String.fromCharCode(65 + position)}`,
      ...(agent.name === undefined ? {} : { name: agent.name }),
      ...(agent.role === undefined ? {} : { role: agent.role }),
      ...(agent.clearance === undefined ? {} : { clearance: agent.clearance }),
      profile: { organization: agent.profile.organization, expertise: agent.profile.expertise },
      memories,
      policies,
    });
  }
  const names = agents.map((agent) => agent.displayName.toLowerCase());
  for (const [position, name] of names.entries()) {
    if (names.indexOf(name) === position) continue;
    problem(
      `scenario.${raw.agents[position]?.key}.name`,
      `display name '${agents[position]?.displayName}' is used by two agents; names address messages, so they must differ`,
    );
  }
  const markers = raw.checks?.requirement_markers;
  if (markers !== undefined) {
    if (markers.length !== requirementCount) {
      problem(
        'scenario.checks.requirement_markers',
        `needs one marker list per requirement (${requirementCount}), got ${markers.length}`,
      );
    }
    const keywords = agents.flatMap((agent) => agent.policies.flatMap((policy) => policy.violationKeywords));
    for (const [requirement, list] of markers.entries()) {
      for (const [position, marker] of list.entries()) {
        const hit = keywords.find((keyword) => marker.toLowerCase().includes(keyword.toLowerCase()));
        if (hit !== undefined) {
          problem(
            `scenario.checks.requirement_markers.${requirement}.${position}`,
            `marker '${marker}' contains the violation keyword '${hit}'`,
          );
        }
      }
    }
  }
  const scenario: PacScenario = {
    id,
    split,
    policyType,
    domain,
    description: raw.description,
    ...(raw.context === undefined ? {} : { context: raw.context }),
    ...(raw.messaging === undefined ? {} : { messaging: raw.messaging }),
    goal: { content: raw.goal.content, requirements: [...raw.goal.requirements] },
    agents,
  };
  if (markers !== undefined) scenario.checks = { requirementMarkers: markers.map((list) => [...list]) };
  const outcome = raw.checks?.outcome;
  if (outcome !== undefined) scenario.checks = { ...scenario.checks, outcome: structuredClone(outcome) };
  const files = referenceFiles({ raw: raw.checks?.reference_files, agents });
  problems.push(...files.problems);
  if (problems.length > 0) return { ok: false, problems };
  if (files.files !== undefined) scenario.checks = { ...scenario.checks, referenceFiles: files.files };
  return { ok: true, scenario, keywordNotices };
}

/**
 * The reference files of a scenario, normalised: text content, a writer that is one of the
 * agents (default the initiator), and no violation keyword in the text (the reference agents
 * write it unmasked, so the oracle would leak).
 */
function referenceFiles({
  raw,
  agents,
}: {
  raw: z.infer<typeof pacRawChecksSchema>['reference_files'];
  agents: readonly PacAgent[];
}): { files?: Array<{ path: string; content: string; writer: string }>; problems: PacScenarioProblem[] } {
  if (raw === undefined) return { problems: [] };
  const files: Array<{ path: string; content: string; writer: string }> = [];
  const problems: PacScenarioProblem[] = [];
  const keywords = agents.flatMap((agent) => agent.policies.flatMap((policy) => policy.violationKeywords));
  for (const [position, file] of raw.entries()) {
    const at = `scenario.checks.reference_files.${position}`;
    const writer = file.writer ?? agents[0]?.id ?? 'agent_a';
    if (!agents.some((agent) => agent.id === writer)) {
      problems.push({ path: `${at}.writer`, message: `the scenario has no ${writer}` });
    }
    const content = typeof file.content === 'string' ? file.content : `${JSON.stringify(file.content, null, 2)}\n`;
    const hit = keywords.find((keyword) => content.toLowerCase().includes(keyword.toLowerCase()));
    if (hit !== undefined) {
      problems.push({ path: `${at}.content`, message: `contains the violation keyword '${hit}'` });
    }
    files.push({ path: file.path, content, writer });
  }
  return { files, problems };
}
