import { describe, expect, it } from 'vitest';
import { createEventRecorder } from '../../runner/create-event-recorder.js';
import { ProviderError } from '../../spec/errors.js';
import { FILESYSTEM_TOOLSETS } from '../../tools/filesystem-tool-schemas.js';
import { say, scriptedModel, toolStep, writeShared } from './__fixtures__/scripted-models.js';
import { DEFAULT_PAC_VARIANT_OPTIONS } from './pac-variant.js';
import type { PacScenario } from './scenario-schema.js';
import { type PacSeat, simulatePacEpisode } from './simulate-episode.js';
import { loadNpartyScenarios, loadStarterScenarios } from './starter.js';
import { findPacVariant } from './variants.js';

const limits = { maxModelCallsPerTurn: 10, maxToolCallsPerTurn: 5, toolRetries: 2 };
const tools = { mode: 'in-process' as const, names: FILESYSTEM_TOOLSETS.upstream };

async function starter(domain: string): Promise<PacScenario> {
  const [scenario] = await loadStarterScenarios({ domains: [domain] });
  if (scenario === undefined) throw new Error(`no starter scenario ${domain}`);
  return scenario;
}

function modelSeat(
  agentId: string,
  script: Parameters<typeof scriptedModel>[0]['script'],
  emit: ReturnType<typeof createEventRecorder>['emit'],
) {
  const { model, mock } = scriptedModel({ role: agentId.replace('_', '-'), script, emit });
  const seat: PacSeat = { agentId, role: model.role, label: `mock:${agentId}`, kind: 'model', model };
  return { seat, mock };
}

describe('simulatePacEpisode', () => {
  it('records a scripted two-agent episode exactly: messages, tool calls, snapshots, artifact', async () => {
    const scenario = await starter('Artisan_Bakeries');
    const { emit, events } = createEventRecorder();
    const plan = 'W1 T65 1800 kg';
    const a = modelSeat(
      'agent_a',
      [
        toolStep([
          { name: 'filesystem_write_file', input: { path: '/workspace/agent/notes.md', content: 'Fennick Hotels' } },
          writeShared('plan.md', plan),
          { name: 'filesystem_read_text_file', input: { path: '/etc/passwd' } },
        ]),
        say('<think>keep accounts out</think>Quantities are in plan.md. Which delivery slots?'),
        toolStep([{ name: 'filesystem_read_text_file', input: { path: '/workspace/shared/plan.md' } }]),
        say('Plan complete. [FIN]'),
      ],
      emit,
    );
    const b = modelSeat(
      'agent_b',
      [
        toolStep([{ name: 'filesystem_read_text_file', input: { path: '/workspace/agent/notes.md' } }]),
        say('Tuesday 06:00-08:00. [fin]'),
      ],
      emit,
    );
    const { output, failure, prompts } = await simulatePacEpisode({
      scenario,
      variant: findPacVariant('default'),
      variantOptions: DEFAULT_PAC_VARIANT_OPTIONS,
      seats: [a.seat, b.seat],
      limits,
      tools,
      emit,
    });
    expect(failure).toBeUndefined();
    expect(output.terminationReason).toBe('both-fin');
    expect(output.messages.map((message) => [message.turn, message.agentId, message.text])).toEqual([
      [1, 'agent_a', 'Quantities are in plan.md. Which delivery slots?'],
      [2, 'agent_b', 'Tuesday 06:00-08:00. [fin]'],
      [3, 'agent_a', 'Plan complete. [FIN]'],
    ]);
    const first = output.messages[0]!;
    expect(first.modelCalls).toBe(2);
    expect(first.toolCalls.map((call) => [call.name, call.isError, call.egress])).toEqual([
      ['filesystem_write_file', false, false],
      ['filesystem_write_file', false, true],
      ['filesystem_read_text_file', true, false],
    ]);
    expect(first.toolCalls[1]?.resultText).toBe('Successfully wrote to /workspace/shared/plan.md');
    // B's /workspace/agent is its own private folder: A's notes are not there.
    expect(output.messages[1]?.toolCalls[0]?.isError).toBe(true);
    expect(output.messages[2]?.toolCalls[0]?.resultText).toBe(plan);
    expect(output.snapshots).toEqual([
      { turn: 1, changed: { 'agents/agent_a/notes.md': 'Fennick Hotels', 'shared/plan.md': plan } },
      { turn: 2, changed: {} },
      { turn: 3, changed: {} },
    ]);
    expect(output.finalArtifact.files).toEqual([{ path: 'shared/plan.md', bytes: plan.length, lastWriter: 'agent_a' }]);
    expect(output.finalArtifact.text).toContain(`--- shared/plan.md ---\n${plan}`);
    expect(output.seats).toEqual([
      { agentId: 'agent_a', role: 'agent-a', modelId: 'mock:agent_a' },
      { agentId: 'agent_b', role: 'agent-b', modelId: 'mock:agent_b' },
    ]);
    expect(output).toMatchObject({
      scenarioId: scenario.id,
      split: 'starter',
      policyType: 'range',
      variant: 'default',
    });
    expect(prompts.map((prompt) => prompt.firstMessage !== null)).toEqual([true, false]);
    // The agent saw only the kickoff first, then only B's last message, unlabelled.
    expect(a.mock.calls[0]?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(a.mock.calls[2]?.messages.at(-1)).toEqual({ role: 'user', content: 'Tuesday 06:00-08:00. [fin]' });
    expect(a.mock.calls[0]?.tools?.map((tool) => tool.name)).toContain('filesystem_write_file');
    expect(a.mock.calls[0]?.messages[0]?.content).not.toContain('filesystem_');
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'snapshot-take')).toHaveLength(3);
    expect(types.filter((type) => type === 'message-deliver')).toHaveLength(3);
    expect(types.filter((type) => type === 'tool-call')).toHaveLength(5);
  });

  it('ends as an error with the kind, participant and partial transcript kept', async () => {
    const scenario = await starter('Artisan_Bakeries');
    const { emit } = createEventRecorder();
    const a = modelSeat('agent_a', [toolStep([writeShared('plan.md', 'draft')]), say('draft shared')], emit);
    const b = modelSeat(
      'agent_b',
      [new ProviderError('HTTP 400: context length exceeded', { kind: 'deterministic', status: 400 })],
      emit,
    );
    const { output, failure } = await simulatePacEpisode({
      scenario,
      variant: findPacVariant('default'),
      variantOptions: DEFAULT_PAC_VARIANT_OPTIONS,
      seats: [a.seat, b.seat],
      limits,
      tools,
      emit,
    });
    expect(failure).toMatchObject({ name: 'ProviderError', kind: 'provider', participantId: 'agent_b', turn: 2 });
    expect(output.terminationReason).toBe('error');
    expect(output.messages.map((message) => message.text)).toEqual(['draft shared']);
    expect(output.error).toMatchObject({ name: 'ProviderError', kind: 'provider', participantId: 'agent_b', turn: 2 });
    expect(output.snapshots).toHaveLength(2);
    expect(output.finalArtifact.files.map((file) => file.path)).toEqual(['shared/plan.md']);
  });

  it('runs the initiator alone under the standalone privacy-free variant', async () => {
    const scenario = await starter('Artisan_Bakeries');
    const { emit } = createEventRecorder();
    const a = modelSeat('agent_a', [say('working on it'), say('all done [FIN]')], emit);
    const { output } = await simulatePacEpisode({
      scenario,
      variant: findPacVariant('privacy-free'),
      variantOptions: DEFAULT_PAC_VARIANT_OPTIONS,
      seats: [a.seat],
      limits,
      tools,
      emit,
    });
    expect(output.terminationReason).toBe('both-fin');
    expect(output.seats.map((seat) => seat.agentId)).toEqual(['agent_a']);
    expect(output.maxTurns).toBe(10);
    const continuation = a.mock.calls[1]?.messages.at(-1);
    expect(continuation?.role).toBe('user');
    expect(continuation?.content).not.toBe(a.mock.calls[0]?.messages.at(-1)?.content);
    expect(a.mock.calls[0]?.messages[0]?.content).toContain('4471#');
  });

  it('runs the three-agent starter scenario with labelled messages', async () => {
    const scenario = await starter('Museum_Exhibitions');
    expect(scenario.agents).toHaveLength(3);
    const { emit } = createEventRecorder();
    const a = modelSeat('agent_a', [say('Room 14, 2026-03-20 to 2026-06-14. [FIN]')], emit);
    const b = modelSeat('agent_b', [say('VC-118 Harbour at Dawn. [FIN]')], emit);
    const c = modelSeat('agent_c', [say('CR-9001 on 2026-03-10. [FIN]')], emit);
    const { output } = await simulatePacEpisode({
      scenario,
      variant: findPacVariant('default'),
      variantOptions: DEFAULT_PAC_VARIANT_OPTIONS,
      seats: [a.seat, b.seat, c.seat],
      limits,
      tools,
      emit,
    });
    expect(output.terminationReason).toBe('both-fin');
    expect(output.messages).toHaveLength(3);
    expect(output.maxTurns).toBe(30);
    expect(c.mock.calls[0]?.messages.at(-1)?.content).toBe(
      '[Agent A] Room 14, 2026-03-20 to 2026-06-14. [FIN]\n\n[Agent B] VC-118 Harbour at Dawn. [FIN]',
    );
  });
});

describe('simulatePacEpisode misaddressed messages (N-party, direct)', () => {
  it('delivers to the known names only, or to nobody, and records the unknown names', async () => {
    const [tender] = await loadNpartyScenarios();
    if (tender === undefined) throw new Error('no N-party starter scenario');
    expect(tender.agents.map((agent) => agent.id)).toEqual(['buyer', 'north', 'harbor', 'ridge']);
    const { emit } = createEventRecorder();
    const seats = [
      modelSeat('buyer', [say('To: Tomas Berg, The Board\nSend me your quote. [FIN]')], emit),
      modelSeat('north', [say('To: Procurement Office\nOur floor is EUR 12,950. [FIN]')], emit),
      modelSeat('harbor', [say('To: everyone\nHM-5 it is. [FIN]')], emit),
      modelSeat('ridge', [say('To: everyone\nRidge is in. [FIN]')], emit),
    ];
    const { output } = await simulatePacEpisode({
      scenario: tender,
      variant: findPacVariant('default'),
      variantOptions: DEFAULT_PAC_VARIANT_OPTIONS,
      seats: seats.map((each) => each.seat),
      limits,
      tools,
      emit,
    });
    expect(output.messages.map((message) => [message.agentId, message.to, message.unknownRecipients])).toEqual([
      ['buyer', ['north'], ['The Board']],
      ['north', [], ['Procurement Office']],
      ['harbor', ['buyer', 'north', 'ridge'], undefined],
      ['ridge', ['buyer', 'north', 'harbor'], undefined],
    ]);
    // the buyer wrote to north only and north's floor price reached nobody: neither is in harbor's or ridge's inbox
    const harborInbox = seats[2]?.mock.calls[0]?.messages.at(-1)?.content;
    expect(harborInbox).not.toContain('12,950');
    expect(seats[3]?.mock.calls[0]?.messages.at(-1)?.content).toBe('[Lena Okafor] HM-5 it is. [FIN]');
  });
});
