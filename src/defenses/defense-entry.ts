import type { Defense } from '../spec/defense.js';

/**
 * A registered defense family. `create` receives the text after `<id>:` for parametric
 * defenses such as `chain:G>V>R` (undefined for plain ids) and throws a PlanValidationError
 * when the parameter does not parse.
 */
export type DefenseEntry = {
  id: string;
  aliases: string[];
  description: string;
  /** Usage shown in `confidant list defenses`, e.g. `chain:<topology>`. */
  usage: string;
  parametric: boolean;
  create(parameter: string | undefined): Defense;
};
