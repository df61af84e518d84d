import { defineGenerator } from '../../../generation/index.js';
import type { ModelRoles } from '../../../spec/chat-model.js';
import { pacGenerateFlagsSchema } from './generate-options.js';
import { generatePacScenarios, pacGenerationOutcome } from './generate-pac-scenarios.js';

/**
 * `confidant generate pac`: PAC-Bench scenarios in four checked stages (pacbench.md §11),
 * resumable. Partial when some units were rejected (each printed with its reasons), failed when
 * none could be generated.
 */
export const pacGenerator = defineGenerator({
  id: 'pac',
  description:
    'Generate PAC-Bench scenarios into --out (use <dataDir>/pacbench/scenarios to run them with --data-dir <dataDir>); ' +
    'rerun the same command to resume. The last line of stdout is the output folder.',
  out: 'the folder to write (or resume)',
  epilog:
    'Files go to <out>/<change|range>/<Domain>/policy_<k>.json; use --out <dataDir>/pacbench/scenarios, then run the ' +
    'suite with --data-dir <dataDir> --split change|range|all.',
  flags: pacGenerateFlagsSchema,
  async run({ flags, model, outDir, signal, log }) {
    const models: ModelRoles = { has: (role) => role === 'datagen', model: () => model, ensemble: () => [model] };
    const result = await generatePacScenarios({
      ...flags,
      outDir,
      models,
      emit: (event) => {
        if (event.type !== 'stage-failed') return;
        const who = event.agent ? `/${event.agent}` : '';
        log(
          `[${event.stage}] ${event.unit}${who} attempt ${event.attempt} failed: ${event.reasons.slice(0, 2).join('; ')}\n`,
        );
      },
      signal,
    });
    for (const rejected of result.rejected) log(`rejected ${rejected.unit} (${rejected.stage}): ${rejected.reason}\n`);
    log(
      `pac: ${result.written.length} scenario(s) written, ${result.resumed} resumed, ${result.rejected.length} rejected, ${result.calls} datagen calls\n`,
    );
    const status = pacGenerationOutcome(result);
    return {
      status,
      output: result.outDir,
      written: result.written.length,
      rejected: result.rejected.length,
      ...(status === 'failed'
        ? { failure: 'generate pac wrote no scenario: every unit was rejected (see above)' }
        : {}),
    };
  },
});
