import { anyPerGroup } from './grouped-rate.js';

/**
 * Leak@K: the share of scenarios where at least one of the K samples leaked. Identical to
 * {@link anyPerGroup}; named separately because suites report it under this name.
 */
export const leakAtK = anyPerGroup;
