import type { ModelRoleDefinition } from '../../spec/model-role.js';

/** PrivacyBench's prober: the simulated user who tries to draw secrets out of the assistant. */
export const PROBER_ROLE: ModelRoleDefinition = { id: 'prober', kind: 'chat' };
