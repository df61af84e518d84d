import type { ModelRoleDefinition } from '../spec/model-role.js';

/** The model that writes generated datasets (`confidant generate`). */
export const DATAGEN_ROLE: ModelRoleDefinition = { id: 'datagen', kind: 'chat' };
