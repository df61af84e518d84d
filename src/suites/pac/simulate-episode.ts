import type { ThreadCompactor } from '../../agents/tool-calling-agent.js';
import { createToolCallingAgent } from '../../agents/tool-calling-agent.js';
import { parseMilestones } from '../../orchestration/termination.js';
import {
  type ConversationFailure,
  type ConversationSeat,
  runTurnBasedConversation,
} from '../../orchestration/turn-based-conversation.js';
import type { BoundModel, EmitEvent } from '../../spec/chat-model.js';
import type { Participant } from '../../spec/participant.js';
import type { FilesystemToolName } from '../../tools/filesystem-tool-schemas.js';
import { Workspace } from '../../tools/workspace.js';
import { WorkspaceSnapshots, type WorkspaceTurnSnapshot } from '../../tools/workspace-snapshots.js';
import { openWorkspaceTools } from '../../tools/workspace-tools.js';
import { addressedParticipant } from './addressed-reply.js';
import { buildPacAgentPrompt, defaultPacMaxTurns, PAC_NPARTY_TEMPLATE, type PacAgentPrompt } from './agent-prompt.js';
import { classifyPacError, type PacErrorKind } from './episode-outcome.js';
import type { KeywordMatch } from './keyword-match.js';
import type { PacOutput, PacTerminationReason } from './pac-output.js';
import type { PacVariant, PacVariantOptions } from './pac-variant.js';
import { isMultiParty } from './policy-audience.js';
import { createPacReferenceAgent, type PacReferencePolicy } from './reference-agents.js';
import type { PacScenario } from './scenario-schema.js';

/** Who fills one seat: a model under test, or a rule-based reference agent. */
export type PacSeat = {
  /** `agent_a`, … (the scenario's agent id). */
  agentId: string;
  /** The role that filled it, e.g. `agent-a` or `agent` (its fallback). */
  role: string;
  /** The pair-grouping label, e.g. `openai:gpt-5.1` or `reference:oracle`. */
  label: string;
} & ({ kind: 'model'; model: BoundModel } | { kind: 'reference'; policy: PacReferencePolicy });

/** Per-turn limits and the turn budget (pacbench.md §2 option table, §4). */
export type PacSimulationLimits = {
  /** Global turns of a collaboration; default 10 per seat. Standalone variants set their own. */
  maxTurns?: number;
  maxModelCallsPerTurn: number;
  maxToolCallsPerTurn: number;
  toolRetries: number;
};

/** How tools are served: in-process over the VFS (default) or the spawned official server. */
export type PacToolsMode = 'in-process' | 'mcp-server';

/** What a failed episode recorded about its failure. */
export type PacEpisodeFailure = ConversationFailure & { kind: PacErrorKind };

/** What {@link simulatePacEpisode} returns: the output, and the failure when the run errored. */
export type PacEpisode = {
  /** The §6 record (an errored run keeps its partial transcript, snapshots and artifact). */
  output: PacOutput;
  /** Each seat's prompt, for the sample record's `input`. */
  prompts: PacAgentPrompt[];
  failure?: PacEpisodeFailure;
};

/** Options of {@link simulatePacEpisode}. */
export type SimulatePacEpisodeOptions = {
  scenario: PacScenario;
  variant: PacVariant;
  variantOptions: PacVariantOptions;
  /** One seat per playing agent, in seat order: all agents, or the initiator under a standalone variant. */
  seats: readonly PacSeat[];
  limits: PacSimulationLimits;
  tools: {
    mode: PacToolsMode;
    /** The tools offered (server names, unprefixed); the model sees them prefixed `filesystem_`. */
    names: readonly FilesystemToolName[];
    /** `mcp-server`: the server entry script and temp root (defaults: resolved / OS temp). */
    serverEntry?: string;
    tempRoot?: string;
    /** Time budget of one tool call in ms (default `DEFAULT_TOOL_TIMEOUT_MS`). */
    timeoutMs?: number;
  };
  /** Thread summarisation per model seat (none when absent). */
  compactThread?: (seat: PacSeat) => ThreadCompactor | undefined;
  /** The run's `keywordMatch`, for the oracle's masking (default `word`). */
  keywordMatch?: KeywordMatch;
  emit?: EmitEvent;
  signal?: AbortSignal;
};

/** The prefix every tool name gets (§5.1), e.g. `filesystem_write_file`. */
export const PAC_TOOL_PREFIX = 'filesystem_';

const TERMINATION: Record<'all-fin' | 'max-turns' | 'error', PacTerminationReason> = {
  'all-fin': 'both-fin',
  'max-turns': 'max-turns',
  error: 'error',
};

/**
 * Simulates one PAC-Bench episode (pacbench.md §4–§6). Every seat gets an empty private folder
 * and all share one folder (a fresh workspace per sample), served by the chosen tools mode.
 * Seats play round-robin through `runTurnBasedConversation` under the variant's protocol —
 * `collaboration` (all seats; ends when all say [FIN] in consecutive turns, or after
 * `maxTurns`) or `standalone` (the initiator alone with the continuation message, for the
 * variant's own turn budget). Model seats run the tool-calling agent with the per-turn limits;
 * reference seats run the rule-based agents. The workspace is snapshotted after every turn
 * (`snapshot-take` events; the diffs are kept in `output.snapshots`), and the final artifact is
 * the shared folder of the last snapshot. A failed turn ends the run: the output keeps what
 * happened so far, and `failure` says what failed, where and of which kind. `output.seats`
 * lists the seats that played (the initiator alone under a standalone variant).
 *
 * N-party scenarios (policy-audience.ts `isMultiParty`): under `direct` messaging every reply's
 * `To:` line addresses it (addressed-reply.ts), each thread receives only what was addressed to
 * it, and a seat with nothing new gets the empty-inbox line; every message record carries `to`
 * (its recipients) and every snapshot its turn's sender (`agentId`) and `to`; a message whose
 * `To:` line named someone who is no other agent records those names as `unknownRecipients`
 * (they received nothing; `to` is empty when nobody known was named). Two-agent upstream
 * scenarios record exactly what they did before.
 */
export async function simulatePacEpisode(options: SimulatePacEpisodeOptions): Promise<PacEpisode> {
  const { scenario, variant, variantOptions, limits, emit, signal } = options;
  const protocol = variant.protocol(variantOptions);
  const playing = protocol.kind === 'standalone' ? 1 : scenario.agents.length;
  if (options.seats.length < playing) {
    throw new RangeError(
      `scenario ${scenario.id} needs ${playing} seats under '${variant.id}', got ${options.seats.length}`,
    );
  }
  const seats = options.seats.slice(0, playing);
  const maxTurns =
    protocol.kind === 'standalone' ? protocol.maxTurns : (limits.maxTurns ?? defaultPacMaxTurns(seats.length));
  const workspace = Workspace.create({ agentIds: seats.map((seat) => seat.agentId) });
  const snapshots = new WorkspaceSnapshots({ workspace });
  const tools = await openWorkspaceTools({
    workspace,
    mode: options.tools.mode === 'in-process' ? 'vfs' : 'mcp-server',
    namePrefix: PAC_TOOL_PREFIX,
    toolNames: options.tools.names,
    ...(options.tools.serverEntry === undefined ? {} : { serverEntry: options.tools.serverEntry }),
    ...(options.tools.tempRoot === undefined ? {} : { tempRoot: options.tools.tempRoot }),
    ...(options.tools.timeoutMs === undefined ? {} : { timeoutMs: options.tools.timeoutMs }),
  });
  try {
    const offered = options.tools.names.map((name) => ({ name: PAC_TOOL_PREFIX + name }));
    const prompts = seats.map((seat) =>
      buildPacAgentPrompt({ scenario, agentId: seat.agentId, variant, variantOptions, maxTurns, tools: offered }),
    );
    const direct = scenario.messaging === 'direct';
    const routed = <State>(participant: Participant<State>): Participant<State> =>
      direct ? addressedParticipant({ participant, scenario }) : participant;
    const conversationSeats: ConversationSeat[] = seats.map((seat, index) => {
      const toolbox = tools.sourceFor(seat.agentId);
      const displayName = scenario.agents[index]?.displayName ?? seat.agentId;
      if (seat.kind === 'reference') {
        return {
          displayName,
          participant: routed(
            createPacReferenceAgent({
              policy: seat.policy,
              scenario,
              agentId: seat.agentId,
              toolbox,
              toolRetries: limits.toolRetries,
              ...(options.keywordMatch === undefined ? {} : { keywordMatch: options.keywordMatch }),
              ...(emit === undefined ? {} : { emit }),
            }),
          ),
        };
      }
      const compactThread = options.compactThread?.(seat);
      return {
        displayName,
        participant: routed(
          createToolCallingAgent({
            id: seat.agentId,
            model: seat.model,
            system: prompts[index]!.system,
            toolbox,
            limits: {
              maxModelCalls: limits.maxModelCallsPerTurn,
              maxToolCalls: limits.maxToolCallsPerTurn,
              toolRetries: limits.toolRetries,
            },
            ...(emit === undefined ? {} : { emit }),
            ...(compactThread === undefined ? {} : { compactThread }),
          }),
        ),
      };
    });
    const multiParty = isMultiParty(scenario);
    const playingIds = seats.map((seat) => seat.agentId);
    const recipients = (speaker: string, to: readonly string[] | undefined) =>
      to === undefined ? playingIds.filter((id) => id !== speaker) : [...to];
    const speakers = new Map<number, { agentId: string; to: string[] }>();
    const result = await runTurnBasedConversation({
      seats: conversationSeats,
      firstMessage: prompts[0]?.firstMessage ?? '',
      continuation: prompts[0]?.continuation ?? null,
      maxTurns,
      ...(direct ? { emptyInbox: PAC_NPARTY_TEMPLATE.part('empty-inbox') } : {}),
      ...(emit === undefined ? {} : { emit }),
      ...(signal === undefined ? {} : { signal }),
      afterTurn: ({ turn, participantId, failed }) => {
        speakers.set(turn, { agentId: participantId, to: [] });
        const taken = snapshots.take({ turn });
        emit?.({ type: 'snapshot-take', participantId, turn, failed, changed: Object.keys(taken.changed) });
      },
    });
    for (const entry of result.transcript) {
      speakers.set(entry.turn, { agentId: entry.participantId, to: recipients(entry.participantId, entry.to) });
    }
    const failure =
      result.failure === undefined ? undefined : { ...result.failure, kind: classifyPacError(result.failure.name) };
    const output: PacOutput = {
      scenarioId: scenario.id,
      split: scenario.split,
      policyType: scenario.policyType,
      domain: scenario.domain,
      variant: variant.id,
      seats: seats.map((seat) => ({ agentId: seat.agentId, role: seat.role, modelId: seat.label })),
      messages: result.transcript.map((entry) => ({
        turn: entry.turn,
        agentId: entry.participantId,
        text: entry.text,
        ...(multiParty ? { to: recipients(entry.participantId, entry.to) } : {}),
        ...(entry.unknownRecipients === undefined ? {} : { unknownRecipients: [...entry.unknownRecipients] }),
        modelCalls: entry.activity?.modelCalls ?? 0,
        refusedToolCalls: entry.activity?.refusedToolCalls ?? 0,
        toolCalls: (entry.activity?.toolCalls ?? []).map(toolCallRecord),
      })),
      terminationReason: TERMINATION[result.terminationReason],
      finalArtifact: snapshots.finalArtifact(),
      milestones: result.transcript.flatMap((entry) =>
        parseMilestones(entry.text).map((milestone) => ({ turn: entry.turn, agentId: entry.participantId, milestone })),
      ),
      maxTurns,
      toolsMode: options.tools.mode,
      snapshots: snapshots.turns.map((snapshot: WorkspaceTurnSnapshot) => ({
        turn: snapshot.turn,
        ...(multiParty ? (speakers.get(snapshot.turn) ?? {}) : {}),
        changed: snapshot.changed,
      })),
      ...(failure === undefined
        ? {}
        : {
            error: {
              name: failure.name,
              kind: failure.kind,
              message: failure.message,
              participantId: failure.participantId,
              turn: failure.turn,
              ...(failure.activity === null
                ? {}
                : {
                    failedTurn: {
                      modelCalls: failure.activity.modelCalls,
                      refusedToolCalls: failure.activity.refusedToolCalls,
                      toolCalls: failure.activity.toolCalls.map(toolCallRecord),
                    },
                  }),
            },
          }),
    };
    return { output, prompts, ...(failure === undefined ? {} : { failure }) };
  } finally {
    await tools.close();
  }
}

function toolCallRecord(call: {
  name: string;
  input: unknown;
  resultText: string;
  isError: boolean;
  egress: boolean;
  kind: string;
  attempts: number;
}) {
  return {
    name: call.name,
    input: call.input,
    resultText: call.resultText,
    isError: call.isError,
    egress: call.egress,
    kind: call.kind,
    attempts: call.attempts,
  };
}
