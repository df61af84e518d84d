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
    try {
      const text = readFileSync(join(packageRoot, 'node_modules', name, 'package.json'), 'utf8');
      versions[name] = (JSON.parse(text) as { version: string }).version;
    } catch {
      // Hoisted elsewhere or absent: the header simply omits it.
    }
  }
  return versions;
}
