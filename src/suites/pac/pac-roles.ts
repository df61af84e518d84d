import type { ModelRoleDefinition } from '../../spec/model-role.js';

/** PAC's thread summarizer: prefers the judge (a neutral model), else the seat's own model. */
export const SUMMARIZER_ROLE: ModelRoleDefinition = { id: 'summarizer', kind: 'chat', fallbacks: ['judge', 'agent'] };
