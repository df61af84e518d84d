import type { DataGenerator } from '../generation/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { pacGenerator } from './pac/generate/index.js';
import { privacybenchGenerator } from './privacybench/generate/index.js';

/** Every suite that can generate its data, one line each (`confidant generate <suite>`). */
export const generatorRegistry: DataGenerator[] = [pacGenerator, privacybenchGenerator];

/** Finds a generator by suite id, or throws a user error that lists the registered ones. */
export function findGenerator(id: string): DataGenerator {
  const generator = generatorRegistry.find((candidate) => candidate.id === id);
  if (generator === undefined) {
    const known = generatorRegistry.map((candidate) => candidate.id).join(', ');
    throw new PlanValidationError(`suite '${id}' has no data generator: use one of ${known}`);
  }
  return generator;
}
