import { PlanValidationError } from '../spec/errors.js';
import { confaideSuite } from './confaide/index.js';
import { pacSuite } from './pac/index.js';
import { privacybenchCalibrationSuite, privacybenchSuite } from './privacybench/index.js';
import { privactTreeSuite, privacylensSuite } from './privacylens/index.js';
import type { Suite } from './suite.js';
import { toyLeakSuite } from './toy-leak/index.js';

/** Every suite, one line each. */
export const suiteRegistry: Suite[] = [
  confaideSuite,
  pacSuite,
  privacybenchSuite,
  privacybenchCalibrationSuite,
  privacylensSuite,
  privactTreeSuite,
  toyLeakSuite,
];

/** Finds a suite by id, or throws a user error that lists the registered ones. */
export function findSuite(id: string): Suite {
  const suite = suiteRegistry.find((candidate) => candidate.id === id);
  if (!suite) {
    const known = suiteRegistry.map((candidate) => candidate.id).join(', ');
    throw new PlanValidationError(`unknown suite '${id}': use one of ${known} (see \`confidant list suites\`)`);
  }
  return suite;
}
