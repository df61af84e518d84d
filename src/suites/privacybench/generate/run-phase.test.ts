import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { GenerationError } from '../../../generation/index.js';
import { MockChatModel, type MockScript } from '../../../models/testing/index.js';
import type { BoundModel } from '../../../spec/chat-model.js';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { seedPeopleOutputSchema } from './datagen-schemas.js';
import { emptyDraft } from './generation-draft.js';
import { resolveGenerationOptions } from './generation-options.js';
import { defineUnit, type Phase } from './generation-unit.js';
import { seedsPhase } from './people-phases.js';
import { type GenerationProgress, type JournalEntry, runPhase, type UnitJournal } from './run-phase.js';

function memoryJournal(initial: JournalEntry[] = []): UnitJournal & { entries: JournalEntry[] } {
  const entries = [...initial];
  return {
    entries,
    latest: (unit) => entries.findLast((entry) => entry.unit === unit),
    append: async (entry) => {
      entries.push(entry);
    },
  };
}

function scripted(script: MockScript): { model: BoundModel; mock: MockChatModel } {
  const mock = new MockChatModel({ script });
  return {
    model: { role: 'datagen', provider: 'mock', modelId: 'm', generate: (request) => mock.doGenerate(request) },
    mock,
  };
}

const twoSeeds = () =>
  emptyDraft(resolveGenerationOptions({ communityId: 'c', overrides: { parameters: { users: 3, seedPersonas: 2 } } }));
const people = (...names: string[]) =>
  JSON.stringify({ people: names.map((name) => ({ name, persona: `${name} persona` })) });

describe('runPhase', () => {
  it('regenerates a unit whose answer fails its checks, with the problems and the rejected answer as feedback', async () => {
    const { model, mock } = scripted([people('Ana'), people('Ana', 'Ben')]);
    const journal = memoryJournal();
    const progress: GenerationProgress[] = [];
    const draft = await runPhase({
      phase: seedsPhase,
      draft: twoSeeds(),
      context: { model, journal, limit: pLimit(2), onProgress: (event) => progress.push(event) },
    });
    expect(draft.community.users.map((user) => user.name)).toEqual(['Ana', 'Ben']);
    expect(progress.map((event) => `${event.status}:${event.attempt}`)).toEqual([
      'generated:1',
      'rejected:1',
      'accepted:2',
    ]);
    expect(progress[1]?.problems).toEqual(['give exactly 2 people, not 1']);
    const retry = mock.calls[1]?.messages[0]?.content ?? '';
    expect(retry).toContain('Your previous answer was rejected');
    expect(retry).toContain('- give exactly 2 people, not 1');
    expect(retry).toContain('{"people":[{"name":"Ana","persona":"Ana persona"}]}');
    expect(journal.entries.map((entry) => [entry.unit, entry.attempt])).toEqual([
      ['seeds', 1],
      ['seeds', 2],
    ]);
  });

  it('reuses a journaled answer without calling the model, and continues its attempt count', async () => {
    const { model, mock } = scripted([people('Cy', 'Dee')]);
    const journal = memoryJournal([{ unit: 'seeds', attempt: 2, output: { people: [{ name: 'Ana', persona: 'p' }] } }]);
    const draft = await runPhase({
      phase: seedsPhase,
      draft: twoSeeds(),
      context: { model, journal, limit: pLimit(1) },
    });
    expect(mock.calls).toHaveLength(1);
    expect(journal.entries.at(-1)).toMatchObject({ unit: 'seeds', attempt: 3 });
    expect(draft.community.users.map((user) => user.name)).toEqual(['Cy', 'Dee']);
  });

  it('stops after maxAttempts with the unit and its problems', async () => {
    const { model, mock } = scripted(people('Ana'));
    const draft = emptyDraft(
      resolveGenerationOptions({
        communityId: 'c',
        overrides: { maxAttempts: 2, parameters: { users: 3, seedPersonas: 2 } },
      }),
    );
    const error = await runPhase({
      phase: seedsPhase,
      draft,
      context: { model, journal: memoryJournal(), limit: pLimit(1) },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(
      /unit 'seeds' still fails after 2 attempt\(s\):\n {2}give exactly 2 people, not 1/,
    );
    expect(mock.calls).toHaveLength(2);
  });

  it('treats an issue that no unit of the phase owns as an error', async () => {
    const phase: Phase = {
      name: 'broken',
      units: () => [
        defineUnit({
          key: 'broken',
          step: 'seeds',
          schema: seedPeopleOutputSchema,
          task: {},
          validate: () => [],
          apply: (target) => {
            // Corrupts earlier data that this unit does not own.
            target.community.relationships[0]!.endDate = '1980-01-01';
          },
        }),
      ],
    };
    const { model } = scripted(people('Ana'));
    const error = await runPhase({
      phase,
      draft: draftFixture(),
      context: { model, journal: memoryJournal(), limit: pLimit(1) },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(
      /phase 'broken' produced problems no unit of it can fix:\n {2}community\.json: relationships\[0\]/,
    );
  });
});
