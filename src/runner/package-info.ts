import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The package's own version, read from its package.json (works from src/ and dist/). */
export function readPackageVersion(): string {
  const text = readFileSync(join(packageRoot, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** Installed versions of the dependencies that shape results, for the run header. */
export function readDependencyVersions(): Record<string, string> {
  const names = ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/google', '@ai-sdk/openai-compatible', 'zod'];
  const versions: Record<string, string> = {};
  for (const name of names) {
    const version = installedVersion(name);
    if (version !== undefined) versions[name] = version;
  }
  return versions;
}

/** The software a run header records: this package's, Node's and the result-shaping dependencies' versions. */
export function softwareVersions(): {
  confidantVersion: string;
  nodeVersion: string;
  dependencyVersions: Record<string, string>;
} {
  return {
    confidantVersion: readPackageVersion(),
    nodeVersion: process.version,
    dependencyVersions: readDependencyVersions(),
  };
}

/**
 * The version of dependency `name` as Node would resolve it from this package: its own
 * node_modules first, then each parent's (an installed package's dependencies are usually
 * hoisted beside it). Undefined when it is absent.
 */
function installedVersion(name: string): string | undefined {
  for (let dir = packageRoot; ; dir = dirname(dir)) {
    try {
      const text = readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8');
      return (JSON.parse(text) as { version: string }).version;
    } catch {
      // Not installed at this level: look one folder up.
    }
    if (dirname(dir) === dir) return undefined;
  }
}
