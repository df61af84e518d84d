import { requestStructuredReply } from '../../../../generation/index.js';
import { type PacGenerateOptions, pacGenerateOptionsSchema } from '../generate-options.js';
import type { PacGenerateEvent, PacGenerationContext } from '../generation-context.js';
import { openPacGenerationJournal } from '../generation-journal.js';
import { type DatagenAsk, scriptedDatagenRoles } from './scripted-pac-datagen.js';

/**
 * A real generation context over a journal in `outDir`, answering from `reply`: what the stage
 * functions get from `generatePacScenarios`, without the orchestration around it.
 */
export async function testGenerationContext({
  outDir,
  reply,
  options = {},
}: {
  outDir: string;
  reply: (ask: DatagenAsk) => string;
  options?: Partial<PacGenerateOptions>;
}): Promise<{ context: PacGenerationContext; asks: DatagenAsk[]; events: PacGenerateEvent[] }> {
  const parsed = pacGenerateOptionsSchema.parse({ domains: ['Banks'], outDir, ...options });
  const { models, asks } = scriptedDatagenRoles({ reply });
  const model = models.model('datagen');
  const journal = await openPacGenerationJournal({
    outDir,
    plan: {
      formatVersion: 1,
      seed: parsed.seed,
      agents: parsed.agents,
      requirementCount: parsed.requirementCount,
      prompts: {},
      datagenModel: 'mock:scripted',
    },
  });
  const events: PacGenerateEvent[] = [];
  const signal = new AbortController().signal;
  const context: PacGenerationContext = {
    options: parsed,
    journal,
    signal,
    emit: (event) => events.push(event),
    ask: (request) =>
      requestStructuredReply({ model, ...request, seed: parsed.seed, maxParseRetries: parsed.maxParseRetries, signal }),
  };
  return { context, asks, events };
}
