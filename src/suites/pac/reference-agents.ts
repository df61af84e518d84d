import { type AgentToolbox, runToolCall } from '../../agents/agent-toolbox.js';
import type { EmitEvent } from '../../spec/chat-model.js';
import { emptyTurnActivity, type Participant, ParticipantTurnError } from '../../spec/participant.js';
import { type KeywordMatch, keywordRule, maskKeywords as maskRuledKeywords } from './keyword-match.js';
import type { PacAgent, PacScenario } from './scenario-schema.js';

/** The rule-based reference agents (architecture §10, pacbench.md §8.4). */
export const PAC_REFERENCE_POLICIES = ['oracle', 'naive'] as const;
/** One of {@link PAC_REFERENCE_POLICIES}. */
export type PacReferencePolicy = (typeof PAC_REFERENCE_POLICIES)[number];

/** The spec prefix that names a reference agent instead of a model: `reference:oracle`. */
export const REFERENCE_SPEC_PREFIX = 'reference:';

/** `reference:oracle` → `oracle`; undefined for a model spec. Throws for an unknown reference name. */
export function parseReferenceSpec(spec: string): PacReferencePolicy | undefined {
  if (!spec.startsWith(REFERENCE_SPEC_PREFIX)) return undefined;
  const name = spec.slice(REFERENCE_SPEC_PREFIX.length);
  const policy = PAC_REFERENCE_POLICIES.find((candidate) => candidate === name);
  if (policy === undefined) {
    throw new RangeError(
      `unknown reference agent '${spec}': use ${PAC_REFERENCE_POLICIES.map((id) => REFERENCE_SPEC_PREFIX + id).join(' or ')}`,
    );
  }
  return policy;
}

/** What the oracle writes in place of a protected value. */
export const MASK = '[withheld]';
/** The file both reference agents write their contribution into, in the shared folder. */
export const REFERENCE_DELIVERABLE = 'deliverable.md';

/**
 * Replaces every occurrence of every keyword with {@link MASK}, case-insensitively, longest first
 * (so a keyword inside a longer one cannot leave a fragment), by the rule the privacy judges match
 * with (`match`, default `word`: "donation" keeps its "na"; see `keyword-match.ts`).
 */
export function maskKeywords({
  text,
  keywords,
  match = 'word',
}: {
  text: string;
  keywords: readonly string[];
  match?: KeywordMatch;
}): string {
  return maskRuledKeywords({ text, keywords: keywords.map((keyword) => ({ keyword, rule: match })), mask: MASK });
}

/**
 * The requirements whose markers `agent` writes: those its memories serve; the initiator also
 * takes the requirements no agent's memory serves, so every marker has a writer.
 */
function requirementsOf({ scenario, agent }: { scenario: PacScenario; agent: PacAgent }): number[] {
  const served = (candidate: PacAgent) => new Set(candidate.memories.flatMap((memory) => memory.requirementIndices));
  const own = served(agent);
  const isInitiator = scenario.agents[0]?.id === agent.id;
  return scenario.goal.requirements
    .map((_, index) => index)
    .filter(
      (index) => own.has(index) || (isInitiator && scenario.agents.every((candidate) => !served(candidate).has(index))),
    );
}

/**
 * The text a reference agent shares (pacbench.md §8.4). Both write the requirement markers of
 * the requirements they serve (`checks.requirementMarkers`, starter data) and then their
 * memories: the naive agent verbatim, the oracle with every violation keyword of its own
 * policies masked — and the oracle masks the markers too, so it never trades privacy for the task.
 */
export function referenceContribution({
  scenario,
  agentId,
  policy,
  keywordMatch = 'word',
}: {
  scenario: PacScenario;
  agentId: string;
  policy: PacReferencePolicy;
  /** The run's `keywordMatch`: the oracle masks exactly what the privacy judges would match. */
  keywordMatch?: KeywordMatch;
}): string {
  const agent = scenario.agents.find((candidate) => candidate.id === agentId);
  if (agent === undefined) throw new RangeError(`scenario ${scenario.id} has no agent '${agentId}'`);
  const markers = scenario.checks?.requirementMarkers ?? [];
  const lines = [`## ${agent.displayName}: ${agent.profile.organization}`, ''];
  for (const index of requirementsOf({ scenario, agent })) {
    const own = markers[index] ?? [];
    if (own.length > 0) lines.push(`- Requirement ${index + 1}: ${own.join('; ')}`);
  }
  if (agent.memories.length > 0) {
    lines.push('', 'Records:', ...agent.memories.map((memory) => memory.content));
  }
  const text = lines.join('\n');
  if (policy === 'naive') return text;
  const keywords = agent.policies.flatMap((each) =>
    each.violationKeywords.map((keyword) => ({
      keyword,
      rule: keywordRule({ run: keywordMatch, policy: each.match }),
    })),
  );
  return maskRuledKeywords({ text, keywords, mask: MASK });
}

/** A reference agent's state: how many turns it has played. */
export type PacReferenceState = { turns: number };

const toolNamed = (names: readonly string[], suffix: string) => names.find((name) => name.endsWith(suffix));

/**
 * A rule-based PAC participant that calls no model. On its first turn it finds the shared
 * folder (`list_allowed_directories`, else `/workspace/shared`), reads the deliverable, writes
 * it back with its {@link referenceContribution} appended (through the same tools and limits
 * as a model), then writes the scenario's reference files it is the writer of
 * (`checks.referenceFiles`, as given: the loader made sure they hold no protected value), and
 * replies with the contribution and `[FIN]`. Later turns only confirm, with
 * `[FIN]`. A tool failure after the retries ends the turn like a model agent's would.
 */
export function createPacReferenceAgent({
  policy,
  scenario,
  agentId,
  toolbox,
  emit,
  toolRetries = 2,
  keywordMatch,
}: {
  policy: PacReferencePolicy;
  scenario: PacScenario;
  agentId: string;
  toolbox: AgentToolbox;
  emit?: EmitEvent;
  toolRetries?: number;
  keywordMatch?: KeywordMatch;
}): Participant<PacReferenceState> {
  const contribution = referenceContribution({
    scenario,
    agentId,
    policy,
    ...(keywordMatch === undefined ? {} : { keywordMatch }),
  });
  // The scenario's reference files this agent writes (e.g. the schedule an outcome check reads).
  const ownFiles = (scenario.checks?.referenceFiles ?? []).filter((file) => file.writer === agentId);
  return {
    id: agentId,
    initialState: () => ({ turns: 0 }),
    async respond({ state, turn, signal }) {
      const activity = emptyTurnActivity();
      const next = { turns: state.turns + 1 };
      if (state.turns > 0) {
        const text = `My part is in the shared ${REFERENCE_DELIVERABLE}; nothing more to add. [FIN]`;
        return { reply: { role: 'assistant', content: text }, state: next, activity };
      }
      let calls = 0;
      const call = async (name: string, input: unknown) => {
        calls += 1;
        const record = await runToolCall({
          toolbox,
          call: { id: `${agentId}-t${turn}-${calls}`, name, input },
          participantId: agentId,
          turn,
          retries: toolRetries,
          ...(emit === undefined ? {} : { emit }),
          ...(signal === undefined ? {} : { signal }),
        });
        activity.toolCalls.push(record);
        return record;
      };
      try {
        const names = (await toolbox.listTools()).map((tool) => tool.name);
        let shared = '/workspace/shared';
        const listName = toolNamed(names, 'list_allowed_directories');
        if (listName !== undefined) {
          const listed = await call(listName, {});
          const found = listed.resultText
            .split('\n')
            .map((line) => line.trim())
            .find((line) => line.startsWith('/') && /\/shared$/.test(line));
          if (found !== undefined) shared = found;
        }
        const path = `${shared}/${REFERENCE_DELIVERABLE}`;
        const readName = toolNamed(names, 'read_text_file');
        const previous = readName === undefined ? undefined : await call(readName, { path });
        const before = previous !== undefined && !previous.isError ? `${previous.resultText.trimEnd()}\n\n` : '';
        const writeName = toolNamed(names, 'write_file');
        if (writeName !== undefined) {
          await call(writeName, { path, content: `${before}${contribution}\n` });
          for (const file of ownFiles) await call(writeName, { path: `${shared}/${file.path}`, content: file.content });
        }
      } catch (cause) {
        throw new ParticipantTurnError({ participantId: agentId, cause, activity });
      }
      return { reply: { role: 'assistant', content: `${contribution}\n\n[FIN]` }, state: next, activity };
    },
  };
}
