import { flattenTree, type VirtualFileSystem } from './virtual-file-system.js';

/**
 * Limits every filesystem tool call meets in both tools modes, checked before the call runs (the
 * in-process tools and the spawned official server then answer the same way). They keep a hostile
 * or confused agent from exhausting memory or the official server's stdio transport, which drops
 * the connection on a message above 10 MiB (MCP SDK `STDIO_DEFAULT_MAX_BUFFER_SIZE`).
 * Documented in `docs/security.md`.
 */
export const TOOL_LIMITS = {
  /** UTF-8 bytes of a file an agent writes (`write_file` content; `edit_file` replacement texts). */
  maxFileBytes: 8 * 1024 * 1024,
  /** Bytes of a call's arguments as JSON (what goes over the wire to the server). */
  maxArgumentBytes: 9 * 1024 * 1024,
  /** Characters of one path argument. */
  maxPathLength: 4096,
  /** UTF-8 bytes of one path segment (a file or folder name), as on Linux file systems. */
  maxNameBytes: 255,
  /** Characters of one glob pattern (`pattern`, each of `excludePatterns`). */
  maxPatternLength: 1024,
  /** Patterns in one `excludePatterns` list. */
  maxExcludePatterns: 64,
  /** Files and folders in one workspace; a call that would add one beyond it is refused. */
  maxWorkspaceEntries: 10_000,
} as const;

/** Default per-call time budget of a tool call, in milliseconds (`--set toolTimeoutMs=…`). */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

const CREATING_TOOLS = new Set(['write_file', 'create_directory']);

function stringsAt(input: Record<string, unknown>, key: string): string[] {
  const value = input[key];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Why a filesystem call breaks {@link TOOL_LIMITS}, as a message for the agent, or `undefined`
 * when it does not. `name` is the server's (unprefixed) tool name; `vfs` is the workspace as the
 * harness sees it (the same in both modes).
 */
export function toolLimitViolation(options: {
  name: string;
  input: Record<string, unknown>;
  vfs: VirtualFileSystem;
}): string | undefined {
  const { name, input, vfs } = options;
  const limits = TOOL_LIMITS;
  const argumentBytes = utf8Bytes(JSON.stringify(input));
  if (argumentBytes > limits.maxArgumentBytes) {
    return `Tool arguments are ${argumentBytes} bytes as JSON; the limit is ${limits.maxArgumentBytes} bytes`;
  }
  for (const path of ['path', 'source', 'destination', 'paths'].flatMap((key) => stringsAt(input, key))) {
    if (path.length > limits.maxPathLength) {
      return `Path is ${path.length} characters long; the limit is ${limits.maxPathLength}`;
    }
    const long = path.split('/').find((segment) => utf8Bytes(segment) > limits.maxNameBytes);
    if (long !== undefined) {
      return `File name too long (${utf8Bytes(long)} bytes; the limit is ${limits.maxNameBytes}): ${long.slice(0, 64)}…`;
    }
  }
  const patterns = ['pattern', 'excludePatterns'].flatMap((key) => stringsAt(input, key));
  if (stringsAt(input, 'excludePatterns').length > limits.maxExcludePatterns) {
    return `Too many exclude patterns; the limit is ${limits.maxExcludePatterns}`;
  }
  const longPattern = patterns.find((pattern) => pattern.length > limits.maxPatternLength);
  if (longPattern !== undefined) {
    return `Glob pattern is ${longPattern.length} characters long; the limit is ${limits.maxPatternLength}`;
  }
  const content = typeof input.content === 'string' ? utf8Bytes(input.content) : 0;
  const edits = Array.isArray(input.edits) ? input.edits : [];
  const replacement = edits.reduce<number>((sum, edit) => {
    const text = typeof edit === 'object' && edit !== null ? (edit as { newText?: unknown }).newText : undefined;
    return sum + (typeof text === 'string' ? utf8Bytes(text) : 0);
  }, 0);
  if (Math.max(content, replacement) > limits.maxFileBytes) {
    return `File content is ${Math.max(content, replacement)} bytes; the limit is ${limits.maxFileBytes} bytes per file`;
  }
  if (CREATING_TOOLS.has(name)) {
    const entries = Object.keys(flattenTree(vfs.snapshot())).length;
    if (entries >= limits.maxWorkspaceEntries) {
      return `The workspace holds ${entries} files and folders; the limit is ${limits.maxWorkspaceEntries}`;
    }
  }
  return undefined;
}
