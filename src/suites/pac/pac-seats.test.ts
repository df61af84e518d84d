import { describe, expect, it } from 'vitest';
import { recordEventsMiddleware } from '../../models/middleware/record-events-middleware.js';
import { createModelRolesFactory } from '../../models/model-roles.js';
import { MockChatModel } from '../../models/testing/mock-chat-model.js';
import { wrapChatModel } from '../../models/wrap-chat-model.js';
import { createEventRecorder } from '../../runner/create-event-recorder.js';
import { MODEL_ROLES } from '../../runner/role-registry.js';
import { PlanValidationError } from '../../spec/errors.js';
import { checkPacSeats, resolvePacSeats, seatAssignments, seatCandidates, seatLabel, seatRole } from './pac-seats.js';
import { loadStarterScenarios } from './starter.js';

const wrapped = (modelId: string) =>
  wrapChatModel({ model: new MockChatModel({ script: 'ok', modelId }), middleware: [recordEventsMiddleware()] });

function roles(bindings: Record<string, string[]>) {
  const factory = createModelRolesFactory({
    roles: MODEL_ROLES,
    bindings: Object.fromEntries(Object.entries(bindings).map(([role, ids]) => [role, ids.map(wrapped)])),
  });
  return factory({ sampleId: 's', epoch: 1, emit: createEventRecorder().emit, signal: new AbortController().signal });
}

describe('PAC seats', () => {
  it('names seat roles and labels without endpoints', () => {
    expect(seatRole('agent_b')).toBe('agent-b');
    expect(seatRole('buyer')).toBe('agent-buyer');
    expect(seatRole('lead_seller')).toBe('agent-lead-seller');
    expect(seatLabel('vllm:meta-llama/Llama-3.3-70B-Instruct@http://h1:8000/v1,http://h2:8000/v1')).toBe(
      'vllm:meta-llama/Llama-3.3-70B-Instruct',
    );
    expect(seatLabel('reference:oracle')).toBe('reference:oracle');
  });

  it('takes a seat’s own bindings, else the agent role’s', () => {
    const bindings = [
      { role: 'agent', spec: 'mock:x' },
      { role: 'agent-b', spec: 'mock:y' },
    ];
    expect(seatCandidates({ agentId: 'agent_a', bindings })).toEqual([{ role: 'agent', spec: 'mock:x' }]);
    expect(seatCandidates({ agentId: 'agent_b', bindings })).toEqual([{ role: 'agent-b', spec: 'mock:y' }]);
  });

  it('builds the cross product of seat candidates, initiator outermost', async () => {
    const [scenario] = await loadStarterScenarios({ domains: ['Artisan_Bakeries'] });
    const bindings = [
      { role: 'agent-a', spec: 'mock:a1' },
      { role: 'agent-a', spec: 'mock:a2' },
      { role: 'agent-b', spec: 'mock:b1' },
      { role: 'agent-b', spec: 'reference:naive' },
    ];
    expect(seatAssignments({ scenario: scenario!, bindings })).toEqual([
      { agent_a: 'mock:a1', agent_b: 'mock:b1' },
      { agent_a: 'mock:a1', agent_b: 'reference:naive' },
      { agent_a: 'mock:a2', agent_b: 'mock:b1' },
      { agent_a: 'mock:a2', agent_b: 'reference:naive' },
    ]);
    expect(seatAssignments({ scenario: scenario!, bindings, seatCount: 1 })).toEqual([
      { agent_a: 'mock:a1' },
      { agent_a: 'mock:a2' },
    ]);
    expect(seatAssignments({ scenario: scenario!, bindings: [] })).toEqual([{}]);
  });

  it('resolves a sample’s seats to the matching grid model or reference agent', async () => {
    const [scenario] = await loadStarterScenarios({ domains: ['Artisan_Bakeries'] });
    const bindings = [
      { role: 'agent-a', spec: 'mock:a1' },
      { role: 'agent-a', spec: 'reference:oracle' },
      { role: 'agent-a', spec: 'mock:a2' },
      { role: 'agent', spec: 'mock:shared' },
    ];
    const models = roles({ 'agent-a': ['a1', 'a2'], agent: ['shared'] });
    const seats = resolvePacSeats({
      scenario: scenario!,
      variant: { agent_a: 'mock:a2', agent_b: 'mock:shared' },
      bindings,
      models,
    });
    expect(seats.map((seat) => [seat.agentId, seat.role, seat.label, seat.kind])).toEqual([
      ['agent_a', 'agent-a', 'mock:a2', 'model'],
      ['agent_b', 'agent', 'mock:shared', 'model'],
    ]);
    expect(seats[0]?.kind === 'model' ? seats[0].model.modelId : '').toBe('a2');
    const reference = resolvePacSeats({
      scenario: scenario!,
      variant: { agent_a: 'reference:oracle', agent_b: 'mock:shared' },
      bindings,
      models,
    });
    expect(reference[0]).toMatchObject({ kind: 'reference', policy: 'oracle' });
    expect(() => resolvePacSeats({ scenario: scenario!, variant: { agent_a: 'mock:zz' }, bindings, models })).toThrow(
      PlanValidationError,
    );
  });

  it('without bindings asks the model roles directly', async () => {
    const [scenario] = await loadStarterScenarios({ domains: ['Artisan_Bakeries'] });
    const seats = resolvePacSeats({ scenario: scenario!, variant: {}, bindings: [], models: roles({ agent: ['m'] }) });
    expect(seats.map((seat) => seat.label)).toEqual(['mock:m', 'mock:m']);
  });

  it('rejects unfilled seats, duplicate grid labels and bad specs', async () => {
    const scenarios = await loadStarterScenarios();
    expect(() => checkPacSeats({ scenarios, bindings: [{ role: 'agent-a', spec: 'mock:a' }] })).toThrow(
      /--model agent-b=/,
    );
    expect(() =>
      checkPacSeats({
        scenarios,
        bindings: [
          { role: 'agent', spec: 'mock:a@http://h1/v1' },
          { role: 'agent', spec: 'mock:a@http://h2/v1' },
        ],
      }),
    ).toThrow(/given mock:a twice/);
    expect(() => checkPacSeats({ scenarios, bindings: [{ role: 'agent', spec: 'reference:sloppy' }] })).toThrow(
      PlanValidationError,
    );
    expect(() => checkPacSeats({ scenarios, bindings: [{ role: 'agent', spec: 'mock:a' }] })).not.toThrow();
  });
});
