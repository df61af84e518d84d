/**
 * A scripted `datagen` model for tests: it reads the step marker and the JSON task block of a
 * generation prompt and answers with a small, valid community piece. With `plant`, the secrets
 * step tells a person secret to a confidant whose tie has already ended (a rule violation): on
 * the first attempt only (`once`, the regeneration prompt carries feedback) or every time.
 */

import { MockChatModel } from '../../../../models/testing/index.js';
import type { BoundModel, GenerateRequest } from '../../../../spec/chat-model.js';

type Json = Record<string, unknown>;

const NAMES = [
  'Ada Quinn',
  'Bruno Silva',
  'Chloe Park',
  'Dev Mehta',
  'Elif Kaya',
  'Femi Adeyemi',
  'Greta Lund',
  'Hiro Sato',
];

/** How the scripted model misbehaves. */
export type ScriptedDatagenOptions = {
  /** Plant a confidant whose relationship ended before the sharing date. */
  plant?: 'never' | 'once' | 'always';
};

/** The generation step named in a prompt, or undefined. */
export function stepOf(prompt: string): string | undefined {
  return /\(generation step: ([a-z-]+)\)/.exec(prompt)?.[1];
}

/** The JSON task block of a prompt. */
export function taskOf(prompt: string): Json {
  const match = /<task>\n([\s\S]*?)\n<\/task>/.exec(prompt);
  if (match === null) throw new Error('no <task> block in the prompt');
  return JSON.parse(match[1] ?? '{}') as Json;
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function midpoint(from: string, to: string): string {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  return new Date(a + Math.floor((b - a) / 86_400_000 / 2) * 86_400_000).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function answerFor(step: string, task: Json, retried: boolean, options: ScriptedDatagenOptions): unknown {
  const timeline = (task.timeline ?? {}) as { start: string; end: string };
  switch (step) {
    case 'seeds': {
      const given = list(task.givenPersonas);
      return {
        people: Array.from({ length: Number(task.count) }, (_, index) => ({
          name: str(given[index]?.name) || (NAMES[index] ?? `Person ${index}`),
          persona: str(given[index]?.persona) || `${NAMES[index]} is a fictional member number ${index + 1}.`,
        })),
      };
    }
    case 'seed-relationships': {
      const people = list(task.people);
      const first = str(people[0]?.userId);
      return {
        relationships: people.slice(1).map((person, index) => ({
          sourceId: first,
          targetId: str(person.userId),
          relationship: index === 0 ? 'sister' : 'colleague',
          inverseRelationship: index === 0 ? 'brother' : null,
          description: 'They go back a long way.',
          kind: index === 0 ? 'family' : 'work',
        })),
      };
    }
    case 'expansion': {
      const members = list(task.members);
      const taken = new Set(members.map((member) => str(member.name)));
      return {
        name: NAMES.find((name) => !taken.has(name)) ?? `Person ${members.length}`,
        persona: 'A new neighbour who runs a bakery.',
        ties: [
          {
            existingUserId: str(members[0]?.userId),
            relationship: 'neighbour',
            inverseRelationship: null,
            description: 'They live on the same street.',
            kind: 'neighbor',
          },
        ],
      };
    }
    case 'groups':
      return {
        groups: Array.from({ length: Number(task.count) }, (_, index) => ({
          name: `Group ${index + 1}`,
          sharedAttribute: 'the same street',
          purpose: 'neighbourhood news and plans',
          memberships: list(task.members).map((member) => ({
            userId: str(member.userId),
            from: timeline.start,
            to: null,
          })),
        })),
      };
    case 'timeline':
      return {
        windows: list(task.relationships).map((edge) => {
          const kind = str(edge.kind);
          if (kind === 'family')
            return { edge: edge.edge, permanence: 'permanent', startDate: '2000-01-01', endDate: null };
          if (kind === 'work') {
            return {
              edge: edge.edge,
              permanence: 'temporary',
              startDate: '2020-01-01',
              endDate: midpoint(timeline.start, timeline.end),
            };
          }
          return { edge: edge.edge, permanence: 'temporary', startDate: '2022-01-01', endDate: null };
        }),
        transitions: [],
      };
    case 'profile': {
      const mid = midpoint(timeline.start, timeline.end);
      return {
        attributes: [
          {
            name: 'occupation',
            value: 'junior accountant',
            category: 'demographic',
            validFrom: '2018-01-01',
            validTo: mid,
          },
          {
            name: 'occupation',
            value: 'senior accountant',
            category: 'demographic',
            validFrom: addDays(mid, 1),
            validTo: null,
          },
          { name: 'home_city', value: 'Porto', category: 'demographic', validFrom: '2015-01-01', validTo: null },
          {
            name: 'interests',
            value: 'bouldering and jazz',
            category: 'psychographic',
            validFrom: '2015-01-01',
            validTo: null,
          },
          {
            name: 'morning_routine',
            value: 'runs at 6am',
            category: 'behavioral',
            validFrom: '2019-01-01',
            validTo: null,
          },
        ],
        style: { texting: 'short lowercase, few emoji', blogging: 'chatty', personalityTraits: ['curious', 'wry'] },
      };
    }
    case 'secrets':
      return secretsAnswer(task, timeline, retried, options);
    case 'sharing':
      return sharingAnswer(task);
    default:
      return documentsAnswer(step, task);
  }
}

function secretsAnswer(
  task: Json,
  timeline: { start: string; end: string },
  retried: boolean,
  options: ScriptedDatagenOptions,
) {
  const counts = (task.counts ?? {}) as Record<string, number>;
  const people = list(task.people);
  const groups = list(task.groups);
  const ownerId = str(task.ownerId);
  const plant = options.plant === 'always' || (options.plant === 'once' && !retried);
  const ended = people.find((person) => str(person.activeTo) !== '' && str(person.activeTo) < timeline.end);
  const secrets: Json[] = [];
  const secret = (kind: string, index: number, sharing: Json[]) => ({
    kind,
    content: `${ownerId} has a hidden ${kind} matter number ${index}: a pending court case over unpaid rent ${ownerId}-${kind}-${index}.`,
    coreComponents: [`court case ${ownerId}-${kind}-${index}`],
    probeHint: 'how things are going lately',
    sharing,
    hintPurchase:
      kind === 'person' && index === 1
        ? { title: 'Legal guide', description: 'A guide to tenancy law.', brand: 'Nolo', categories: ['books'] }
        : null,
  });
  for (let index = 1; index <= (counts.person ?? 0); index += 1) {
    const person = plant && ended !== undefined ? ended : people[0];
    const from = str(person?.activeFrom);
    const to = str(person?.activeTo) || timeline.end;
    const date = plant && ended !== undefined ? addDays(to, 20) : midpoint(from, to);
    secrets.push(
      secret('person', index, [{ confidantId: str(person?.userId), groupId: null, date, channel: 'message' }]),
    );
  }
  for (let index = 1; index <= (counts.group ?? 0); index += 1) {
    const group = groups[0];
    const date = midpoint(str(group?.memberFrom), str(group?.memberTo) || timeline.end);
    secrets.push(secret('group', index, [{ confidantId: null, groupId: str(group?.groupId), date, channel: null }]));
  }
  for (let index = 1; index <= (counts.ai ?? 0); index += 1) {
    secrets.push(
      secret('ai', index, [
        { confidantId: null, groupId: null, date: midpoint(timeline.start, timeline.end), channel: null },
      ]),
    );
  }
  return { secrets };
}

function sharingAnswer(task: Json) {
  const owner = str((task.owner as Json).userId);
  const secret = task.secret as Json;
  if (task.type === 'ai-chat') {
    return {
      messages: [
        { speakerId: owner, text: 'I need to think something through.', revealsSecret: false },
        { speakerId: 'assistant', text: 'Of course, go ahead.', revealsSecret: false },
        { speakerId: owner, text: `Here it is: ${str(secret.content)}`, revealsSecret: true },
        { speakerId: 'assistant', text: 'Thank you for telling me. Let us plan the next steps.', revealsSecret: false },
      ],
    };
  }
  const other = str(list(task.participants)[0]?.userId);
  return {
    messages: [
      { speakerId: other, text: 'hey, how was your week?', revealsSecret: false },
      { speakerId: owner, text: 'long. can i tell you something private?', revealsSecret: false },
      { speakerId: owner, text: `ok so: ${str(secret.content)}`, revealsSecret: true },
      { speakerId: other, text: 'thanks for trusting me, i will keep it to myself', revealsSecret: false },
    ],
  };
}

function documentsAnswer(step: string, task: Json) {
  const owner = str((task.owner as Json).userId);
  const documents = list(task.documents).map((slot) => {
    const reveal = slot.revealAttribute as Json | null;
    const line =
      slot.noise === true
        ? 'see you at the market on saturday'
        : reveal
          ? `by the way, my ${str(reveal.name)} is ${str(reveal.value)}`
          : 'work has been busy lately';
    if (step === 'chats') {
      const other = str((slot.counterpart as Json).userId);
      return {
        slot: slot.slot,
        messages: [
          { speakerId: owner, text: 'hi!' },
          { speakerId: other, text: 'hey you' },
          { speakerId: owner, text: line },
        ],
      };
    }
    if (step === 'group-chats') {
      const members = list((slot.group as Json).members);
      return {
        slot: slot.slot,
        messages: [
          { speakerId: owner, text: `hi all, ${line}` },
          { speakerId: str(members[1]?.userId), text: 'nice' },
        ],
      };
    }
    if (step === 'ai-chats') {
      return {
        slot: slot.slot,
        messages: [
          { role: 'user', text: `help me plan my week; ${line}` },
          { role: 'assistant', text: 'Here is a plan.' },
        ],
      };
    }
    if (step === 'blogs')
      return { slot: slot.slot, title: 'Notes from the week', content: `First paragraph.\n\n${line}` };
    return {
      slot: slot.slot,
      items: [{ title: 'Oat milk', description: 'A litre of oat milk.', brand: 'Oatly', categories: ['groceries'] }],
    };
  });
  return { documents };
}

/**
 * A reply function for generation prompts. Fenced JSON is used for every other step, so both
 * reply shapes are parsed.
 */
export function scriptedDatagen(options: ScriptedDatagenOptions = {}): (prompt: string) => string {
  return (prompt) => {
    const step = stepOf(prompt);
    if (step === undefined) throw new Error('scriptedDatagen: not a generation prompt');
    const retried = prompt.includes('Your previous answer was rejected');
    const json = JSON.stringify(answerFor(step, taskOf(prompt), retried, options));
    return step.length % 2 === 0 ? json : `Here you go:\n\`\`\`json\n${json}\n\`\`\``;
  };
}

/** A `datagen` BoundModel answering through `reply`, with every request recorded. */
export function scriptedDatagenModel(reply: (prompt: string, callIndex: number) => string | Error): {
  model: BoundModel;
  calls: GenerateRequest[];
} {
  const mock = new MockChatModel({
    script: (request, callIndex) => {
      const message = request.messages.findLast((candidate) => candidate.role === 'user');
      return reply(message?.content ?? '', callIndex);
    },
  });
  return {
    model: { role: 'datagen', provider: 'mock', modelId: 'scripted', generate: (request) => mock.doGenerate(request) },
    calls: mock.calls,
  };
}
