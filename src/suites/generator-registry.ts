import type { DataGenerator } from '../generation/index.js';
import { PlanValidationError } from '../spec/errors.js';

/** A suite's data generator as the registry knows it before loading its code. */
export type GeneratorEntry = {
  /** The suite id (`confidant generate <id>`). */
  id: string;
  /** Imports the generator's module; `loadGenerator` keeps the result. */
  load: () => Promise<DataGenerator>;
};

/** Every suite that can generate its data, one line each (`confidant generate <suite>`). */
export const generatorRegistry: GeneratorEntry[] = [
  { id: 'pac', load: async () => (await import('./pac/generate/pac-generator.js')).pacGenerator },
  {
    id: 'privacybench',
    load: async () => (await import('./privacybench/generate/privacybench-generator.js')).privacybenchGenerator,
  },
];

const loaded = new Map<string, Promise<DataGenerator>>();
const settled = new Map<string, DataGenerator>();

/** Loads a generator by suite id (its module is imported once), or throws a user error that lists the registered ones. */
export function loadGenerator(id: string): Promise<DataGenerator> {
  const entry = generatorRegistry.find((candidate) => candidate.id === id);
  if (entry === undefined) {
    const known = generatorRegistry.map((candidate) => candidate.id).join(', ');
    throw new PlanValidationError(`suite '${id}' has no data generator: use one of ${known}`);
  }
  let generator = loaded.get(entry.id);
  if (generator === undefined) {
    generator = entry.load().then((value) => {
      settled.set(entry.id, value);
      return value;
    });
    loaded.set(entry.id, generator);
  }
  return generator;
}

/** Every registered generator, loaded, in registry order. */
export function loadGenerators(): Promise<DataGenerator[]> {
  return Promise.all(generatorRegistry.map((entry) => loadGenerator(entry.id)));
}

/** The generator of suite `id` if `loadGenerator` has already loaded it (for synchronous command set-up). */
export function loadedGenerator(id: string): DataGenerator | undefined {
  return settled.get(id);
}
