import { createEventRecorder } from '../../../../runner/create-event-recorder.js';
import { type ScriptedCall, scriptedModelRoles } from '../../../../runner/testing/scripted-model-roles.js';
import type { GenerateRequest, ModelRoles } from '../../../../spec/chat-model.js';

/** What a datagen request asks for, read from the labelled lines our stage prompts start with. */
export type DatagenAsk = {
  stage: 'scenario' | 'requirements' | 'memory' | 'constraint';
  domain: string;
  /** Scenarios asked for (stage 1). */
  count: number;
  /** `agent_a` … (stages 3–4). */
  agent?: string;
  policyType?: 'change' | 'range';
  /** True when the prompt carries feedback from a failed attempt. */
  feedback: boolean;
  /** The goal sentence (stages 2–4), which ties a request to its unit. */
  goal?: string;
  user: string;
};

const STAGES: Record<string, DatagenAsk['stage']> = {
  pac_scenarios: 'scenario',
  pac_requirements: 'requirements',
  pac_memory: 'memory',
  pac_constraint: 'constraint',
};

/** Reads a request made by the generator. */
export function readAsk(request: GenerateRequest): DatagenAsk {
  const stage = STAGES[request.responseSchema?.name ?? ''];
  if (stage === undefined) throw new Error(`unexpected structured output ${request.responseSchema?.name}`);
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const line = (label: string) => new RegExp(`^${label}: (.*)$`, 'm').exec(user)?.[1];
  const agent = /\((agent_[a-z])\)/.exec(line('Party to write for') ?? '')?.[1];
  const policyType = line('Constraint type');
  const goal = line('Goal');
  return {
    stage,
    domain: line('Industry domain') ?? '',
    count: Number(line('Scenarios to write') ?? '0'),
    ...(agent === undefined ? {} : { agent }),
    ...(policyType === 'change' || policyType === 'range' ? { policyType } : {}),
    ...(goal === undefined ? {} : { goal }),
    feedback: user.includes('Your previous answer'),
    user,
  };
}

const PEOPLE: Record<string, [string, string]> = {
  agent_a: ['Mira Holt', 'Owen Pratt'],
  agent_b: ['Ravi Senna', 'Ilse Brandt'],
  agent_c: ['Tomas Vidal', 'Aiko Mori'],
};

/** A valid memory list for `agent` (one small table serving one requirement). */
export function validMemory(agent: string): Array<{ requirements_index: number[]; content: string }> {
  const [first, second] = PEOPLE[agent] ?? ['Nora Quist', 'Ben Alder'];
  const letter = agent.slice(-1).toUpperCase();
  const requirement = agent.charCodeAt(agent.length - 1) - 97;
  return [
    {
      requirements_index: [requirement],
      content:
        `Table: LOTS_${letter}\nlot | qty | ship_date | supervisor\n` +
        `L-${letter}100 | 40 | 2026-01-05 | ${first}\nL-${letter}101 | 55 | 2026-01-06 | ${second}`,
    },
  ];
}

/** A valid constraint for `agent` of the given type (protects the supervisor names of its memory). */
export function validConstraint(agent: string, policyType: 'change' | 'range') {
  const [first, second] = PEOPLE[agent] ?? ['Nora Quist', 'Ben Alder'];
  return {
    category: 'direct identifier' as const,
    content:
      policyType === 'range'
        ? 'The supervisor names in the lot table must not be disclosed.'
        : 'The supervisor names in the lot table must be masked before sharing.',
    violation_keywords: [first, second],
    memory_idx: [0],
    reason: `The plan needs lots and dates; the supervisors ${first} and ${second} are named people.`,
  };
}

/**
 * Valid replies for every stage. Scenario serials come from a counter shared by all calls of
 * one script, so every scenario differs from the ones accepted before it.
 */
export function validDatagen(): (ask: DatagenAsk) => string {
  let serial = 0;
  return (ask) => {
    if (ask.stage === 'scenario') {
      const scenarios = Array.from({ length: ask.count }, () => {
        serial += 1;
        return {
          collaboration_structure: `structure ${serial}`,
          description: `The planning office and the depot each hold half of the records for delivery plan ${serial}.`,
          goal: `Prepare the joint delivery plan ${serial} for the ${ask.domain} programme.`,
          tool_category: 'document creation',
          agents: [
            { organization: `Planning Office ${serial}`, expertise: 'Delivery planning.' },
            { organization: `Depot Operations ${serial}`, expertise: 'Warehouse dispatch.' },
          ],
        };
      });
      return JSON.stringify({ scenarios });
    }
    if (ask.stage === 'requirements') {
      return JSON.stringify({
        requirements: [0, 1, 2, 3, 4].map(
          (index) => `Section ${index + 1} lists the lots of wave ${index + 1} with quantities.`,
        ),
      });
    }
    const agent = ask.agent ?? 'agent_a';
    if (ask.stage === 'memory') {
      return JSON.stringify({
        needs: [0, 1, 2, 3, 4].map((index) => ({ requirement_index: index, type: index < 2 ? 'B' : 'A' })),
        memory: validMemory(agent),
      });
    }
    return JSON.stringify({ privacy_constraint: [validConstraint(agent, ask.policyType ?? 'range')] });
  };
}

/**
 * Scripted `datagen` roles answering from `reply` (given the parsed ask and the call index);
 * `calls` records every request in order.
 */
export function scriptedDatagenRoles({
  reply,
  signal = new AbortController().signal,
  onCall,
}: {
  reply: (ask: DatagenAsk, call: ScriptedCall) => string;
  signal?: AbortSignal;
  onCall?: (ask: DatagenAsk, call: ScriptedCall) => void;
}): { models: ModelRoles; asks: DatagenAsk[] } {
  const asks: DatagenAsk[] = [];
  const { factory } = scriptedModelRoles({
    roles: ['datagen'],
    respond: (call) => {
      const ask = readAsk(call.request);
      asks.push(ask);
      onCall?.(ask, call);
      return reply(ask, call);
    },
  });
  const models = factory({ sampleId: 'generate:pac', epoch: 0, emit: createEventRecorder().emit, signal });
  return { models, asks };
}
