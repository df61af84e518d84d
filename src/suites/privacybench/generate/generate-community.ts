import pLimit from 'p-limit';
import { openGenerationJournal } from '../../../generation/index.js';
import type { BoundModel } from '../../../spec/chat-model.js';
import type { Community, CommunityDocument } from '../community-schema.js';
import { writeCommunityFiles } from '../write-community.js';
import { documentsPhase } from './documents-phase.js';
import { finalizeCommunity } from './finalize-community.js';
import { type Draft, emptyDraft } from './generation-draft.js';
import type { GenerationOptions } from './generation-options.js';
import { generationPromptVersions } from './generation-prompts.js';
import type { Phase } from './generation-unit.js';
import { groupsPhase, timelinePhase } from './group-timeline-phases.js';
import { expansionPhase, seedRelationshipsPhase, seedsPhase } from './people-phases.js';
import { profilePhase } from './profile-phase.js';
import { type GenerationProgress, journalEntrySchema, runPhase, unitJournal } from './run-phase.js';
import { secretsPhase } from './secrets-phase.js';
import { sharingPhase } from './sharing-phase.js';

/** Options of {@link generateCommunity}. */
export type GenerateCommunityOptions = {
  /** The `datagen` model. */
  model: BoundModel;
  options: GenerationOptions;
  /** The community directory to write; its `.generate/` subdirectory holds the journal. */
  outDir: string;
  /** Units generated at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
  /** Clock for `generation.createdAt` (tests pass a fixed one). */
  now?: () => Date;
};

/** A generated community, written to `dir`. */
export type GeneratedCommunity = {
  dir: string;
  communityPath: string;
  documentsPath: string;
  community: Community;
  documents: CommunityDocument[];
};

/** The phases in order (privacybench.md §2): people, groups, time, profiles, secrets, conversations. */
function phasesFor(options: GenerationOptions): Phase[] {
  const { users, seedPersonas } = options.parameters;
  return [
    seedsPhase,
    ...(seedPersonas > 1 ? [seedRelationshipsPhase] : []),
    ...Array.from({ length: users - seedPersonas }, () => expansionPhase()),
    groupsPhase,
    timelinePhase,
    profilePhase,
    secretsPhase,
    sharingPhase,
    documentsPhase,
  ];
}

/**
 * Generates a PrivacyBench community with the `datagen` model (privacybench.md §2) and writes it
 * to `outDir` (`community.json`, `documents.jsonl`), where `loadCommunity` accepts it.
 *
 * The pipeline: seed personas (the user's or written by datagen), relationships inferred between
 * them, expansion one member at a time, groups, relationship validity windows, profile enrichment,
 * secrets with their sharing plans (and hinting purchases), one conversation per sharing event
 * with the revealing messages tagged, then the mundane documents per time step with the noise
 * share. Every datagen call is one structured-output unit (see `runPhase`): validated with zod,
 * checked with `checkCommunity` after its phase, and regenerated alone, with feedback, when it
 * fails (at most `maxAttempts` times, then a `GenerationError` naming the unit).
 *
 * Resumable: every accepted answer is journaled in `<outDir>/.generate/journal.jsonl` as soon as it
 * parses, and the plan (documents, ids, dates) is a deterministic function of the journaled
 * answers and the seed; rerunning with the same options continues where a killed run stopped
 * without asking for finished units again. Other options for the same directory are refused.
 */
export async function generateCommunity({
  model,
  options,
  outDir,
  concurrency = 4,
  signal,
  onProgress,
  now = () => new Date(),
}: GenerateCommunityOptions): Promise<GeneratedCommunity> {
  const datagenModel = `${model.provider}:${model.modelId}`;
  const journal = await openGenerationJournal({
    outDir,
    plan: {
      formatVersion: 1,
      generator: 'privacybench',
      settings: options,
      prompts: generationPromptVersions(),
      datagenModel,
    },
    lineSchema: journalEntrySchema,
    // The retry limits only bound the work: raising them gets past a unit that kept failing.
    mayChange: ['maxAttempts', 'maxParseRetries'],
  });
  const context = {
    model,
    journal: unitJournal(journal),
    limit: pLimit(concurrency),
    ...(signal === undefined ? {} : { signal }),
    ...(onProgress === undefined ? {} : { onProgress }),
  };
  let draft: Draft = emptyDraft(options);
  for (const phase of phasesFor(options)) {
    signal?.throwIfAborted();
    draft = await runPhase({ phase, draft, context });
  }
  const { community, documents } = finalizeCommunity({ draft, datagenModel, createdAt: now().toISOString() });
  const paths = await writeCommunityFiles({ dir: outDir, community, documents });
  return { dir: outDir, ...paths, community, documents };
}
