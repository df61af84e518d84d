import type { Defense } from '../spec/defense.js';

/**
 * Whether a defense family takes a parameter after `<id>:`: `'required'` (e.g.
 * `chain:<topology>`), `'optional'` (e.g. `one-two-three-check[:upstream]`) or `false`.
 */
export type DefenseParameter = 'required' | 'optional' | false;

/**
 * A registered defense family. `create` receives the text after `<id>:` for parametric
 * defenses such as `chain:G>V>R` (undefined when none was given) and throws a
 * PlanValidationError when the parameter does not parse.
 */
export type DefenseEntry = {
  id: string;
  aliases: string[];
  description: string;
  /** Usage shown in `confidant list defenses`, e.g. `chain:<topology>`. */
  usage: string;
  parametric: DefenseParameter;
  create(parameter: string | undefined): Defense;
};
