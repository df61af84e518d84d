import type { EmitEvent, GenerateSettings, ModelRoles } from './chat-model.js';
import type { AccessContext, Chunk } from './chunk.js';
import type { TaskPrompt } from './task-prompt.js';

/** The kinds of task a suite asks a model to do; defenses declare which they apply to. */
export type TaskKind = 'final-action' | 'free-text-answer' | 'assistant-turn' | 'collaboration-turn';

/** What a responder defense produced: the final text plus every intermediate stage. */
export type ResponderResult = {
  text: string;
  stages: Array<{ role: string; text: string }>;
};

/**
 * A registered defense. Prompt defenses rewrite the task prompt; responder defenses replace
 * the single generation with their own pipeline of roles; retrieval filters drop chunks before top-k.
 * Each records `defense-action` events so its effect is auditable.
 */
export type Defense =
  | {
      id: string;
      description: string;
      kind: 'prompt';
      appliesTo: TaskKind[];
      transform(prompt: TaskPrompt): TaskPrompt;
    }
  | {
      id: string;
      description: string;
      kind: 'responder';
      appliesTo: TaskKind[];
      /**
       * The model calls one answer makes, in order: each call's role and how many earlier
       * outputs its prompt carries (for `--dry-run`'s call counts and token estimates).
       */
      answerCalls?: ReadonlyArray<{ role: string; upstream: number }>;
      respond(options: {
        prompt: TaskPrompt;
        models: ModelRoles;
        emit: EmitEvent;
        settings: GenerateSettings;
        sampleOrdinal?: number;
      }): Promise<ResponderResult>;
    }
  | {
      id: string;
      description: string;
      kind: 'retrieval-filter';
      appliesTo: TaskKind[];
      /** `true` keeps the chunk: the requester in `access` may see it at `access.at`. */
      filter(options: { chunk: Chunk; access: AccessContext }): boolean;
      /**
       * Why `filter` withholds this chunk, in a few words for the `defense-action` event
       * (e.g. "carries secret s3, not authorized for u2"). Called only on withheld chunks.
       */
      explain?(options: { chunk: Chunk; access: AccessContext }): string;
    };
