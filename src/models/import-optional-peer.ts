import { MissingOptionalDependencyError } from '../spec/errors.js';

/** Node says ERR_MODULE_NOT_FOUND; bundlers and test runners word it their own way. */
function isModuleNotFound({ error, packageName }: { error: unknown; packageName: string }): boolean {
  if (!(error instanceof Error) || !error.message.includes(packageName)) return false;
  const code = (error as Error & { code?: unknown }).code;
  return (
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'MODULE_NOT_FOUND' ||
    /cannot find (package|module)|could not resolve|failed to resolve/i.test(error.message)
  );
}

/**
 * Loads an optional peer dependency lazily, or throws a MissingOptionalDependencyError that says
 * what needs it (`purpose`) and the install command. `isModule` checks the loaded API, so an
 * incompatible version gets the same one-line fix instead of a crash later.
 */
export async function importOptionalPeer<Module>({
  packageName,
  install,
  purpose,
  isModule,
}: {
  packageName: string;
  install: string;
  purpose: string;
  isModule: (value: unknown) => value is Module;
}): Promise<Module> {
  // A variable specifier keeps tsc (and bundlers) from resolving the optional package.
  const specifier: string = packageName;
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    if (isModuleNotFound({ error, packageName })) {
      throw new MissingOptionalDependencyError(
        `${purpose} need the optional package ${packageName}: run \`${install}\``,
        { cause: error },
      );
    }
    throw error;
  }
  if (!isModule(loaded)) {
    throw new MissingOptionalDependencyError(
      `the installed ${packageName} does not have the expected API: run \`${install}\``,
    );
  }
  return loaded;
}
