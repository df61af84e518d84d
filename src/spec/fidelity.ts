/**
 * `--fidelity`: how closely a run reproduces each suite's upstream scorer (docs/fidelity.md).
 * - `confidant` (default): our documented behaviour (strict parsing, errors never read as a result);
 * - `upstream`: every suite sets the options that reproduce its upstream scorer exactly, quirks
 *   included (each suite's `SuiteDefinition.upstreamOptions`).
 */
export const FIDELITY_MODES = ['confidant', 'upstream'] as const;
/** One of {@link FIDELITY_MODES}. */
export type Fidelity = (typeof FIDELITY_MODES)[number];

/** The fidelity a run uses when none is given. */
export const DEFAULT_FIDELITY: Fidelity = 'confidant';
