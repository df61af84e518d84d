import { resolveAllowedPath } from './resolve-allowed-path.js';
import { ToolError } from './tool-error.js';

/**
 * Why a call would move one of the agent's allowed folders (its own or the shared one), or
 * `undefined`. Roots are immovable in both tools modes: the official server would let an agent
 * move its private folder into the shared one (exposing it to the others) or the shared folder
 * into its own (cutting the others off), so the harness refuses such a `move_file` before the
 * server sees it, with the text a busy mount point gives (`EBUSY`). The tools offer no delete and
 * no link, so a move is the only way to touch a root.
 */
export function rootMoveRefusal(options: {
  name: string;
  input: Record<string, unknown>;
  /** The agent's allowed folders as it sees them. */
  folders: ReadonlyArray<{ at: string }>;
}): string | undefined {
  const { name, input, folders } = options;
  if (name !== 'move_file' || typeof input.source !== 'string' || typeof input.destination !== 'string') {
    return undefined;
  }
  const directories = folders.map((folder) => folder.at);
  const absolute = (requested: string): string | undefined => {
    try {
      return resolveAllowedPath({ requested, directories }).absolute;
    } catch (error) {
      if (ToolError.isInstance(error)) return undefined;
      throw error;
    }
  };
  const source = absolute(input.source);
  if (source === undefined || !directories.includes(source)) return undefined;
  const destination = absolute(input.destination) ?? input.destination;
  return `EBUSY: resource busy or locked, rename '${source}' -> '${destination}'`;
}
