import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureCases } from '../../src/suites/privacylens/__fixtures__/fixture-cases.js';

/**
 * Writes our own PrivacyLens cases (`src/suites/privacylens/__fixtures__/fixture-cases.ts`, four
 * cases in the upstream `main_data.json` format) as `<dataDir>/privacylens/main_data.json` and
 * returns `dataDir`. Their names are not PrivAct's, so runs over them use `--split all`.
 */
export function writePrivacyLensFixture(dataDir: string): string {
  mkdirSync(join(dataDir, 'privacylens'), { recursive: true });
  writeFileSync(join(dataDir, 'privacylens', 'main_data.json'), `${JSON.stringify(fixtureCases, null, 2)}\n`);
  return dataDir;
}
