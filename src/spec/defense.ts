import type { EmitEvent, GenerateSettings, ModelRoles } from './chat-model.js';
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
      filter(options: { chunk: unknown; access: unknown }): boolean;
    };
