import { describe, expect, it } from 'vitest';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { importOptionalPeer } from './import-optional-peer.js';

describe('importOptionalPeer', () => {
  it('names the install command when the package is absent', async () => {
    const error = await importOptionalPeer({
      packageName: 'confidant-test-no-such-package',
      install: 'npm install confidant-test-no-such-package@1.0.0',
      purpose: 'llamacpp models',
      isModule: (value): value is object => typeof value === 'object',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingOptionalDependencyError);
    expect((error as MissingOptionalDependencyError).userError).toBe(true);
    expect((error as Error).message).toBe(
      'llamacpp models need the optional package confidant-test-no-such-package: run `npm install confidant-test-no-such-package@1.0.0`',
    );
  });

  it('names the install command when the installed package has another API', async () => {
    const error = await importOptionalPeer({
      packageName: 'p-limit',
      install: 'npm install p-limit@7.3.3',
      purpose: 'tests',
      isModule: (value): value is { pLimitHasNoSuchExport: true } =>
        typeof value === 'object' && value !== null && 'pLimitHasNoSuchExport' in value,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingOptionalDependencyError);
    expect((error as Error).message).toBe(
      'the installed p-limit does not have the expected API: run `npm install p-limit@7.3.3`',
    );
  });
});
