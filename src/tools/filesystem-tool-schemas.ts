import { z } from 'zod';
import type { ToolKind } from '../spec/tool.js';
import { resolveAllowedPath } from './resolve-allowed-path.js';
import { ToolError } from './tool-error.js';

/**
 * The tool surface of `@modelcontextprotocol/server-filesystem@2026.8.31` (pacbench.md §5.1):
 * the same 14 names, in the server's order, with the same input schemas (types, required keys,
 * defaults, limits). Field and tool descriptions are our own wording.
 */
export const FILESYSTEM_TOOL_NAMES = [
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'write_file',
  'edit_file',
  'create_directory',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'move_file',
  'search_files',
  'get_file_info',
  'list_allowed_directories',
] as const;
/** One of {@link FILESYSTEM_TOOL_NAMES}. */
export type FilesystemToolName = (typeof FILESYSTEM_TOOL_NAMES)[number];

const BANNED_UPSTREAM: readonly FilesystemToolName[] = [
  'read_file',
  'read_media_file',
  'list_directory_with_sizes',
  'get_file_info',
];

/**
 * Named tool selections (pacbench.md §5.1): `all` 14 tools; `upstream` the 10 the upstream code
 * leaves visible (the default for agents); `paper6` the six "File" tools of paper Table 6.
 */
export const FILESYSTEM_TOOLSETS = {
  all: FILESYSTEM_TOOL_NAMES,
  upstream: FILESYSTEM_TOOL_NAMES.filter((name) => !BANNED_UPSTREAM.includes(name)),
  paper6: ['read_text_file', 'read_multiple_files', 'write_file', 'edit_file', 'create_directory', 'list_directory'],
} as const satisfies Record<string, readonly FilesystemToolName[]>;

const path = z.string();
const readTextInput = z.object({
  path,
  tail: z.number().optional().describe('Give only this many lines from the end of the file'),
  head: z.number().optional().describe('Give only this many lines from the start of the file'),
});
const pathOnly = z.object({ path });
const excludePatterns = z.array(z.string()).optional().default([]);

/** Input schemas by tool name; parsing applies the server's defaults. */
export const filesystemToolInputSchemas = {
  read_file: readTextInput,
  read_text_file: readTextInput,
  read_media_file: pathOnly,
  read_multiple_files: z.object({
    paths: z.array(z.string()).min(1).describe('The files to read; each must lie inside an allowed folder'),
  }),
  write_file: z.object({ path, content: z.string() }),
  edit_file: z.object({
    path,
    edits: z.array(
      z.object({
        oldText: z.string().describe('Existing text to replace, character for character'),
        newText: z.string().describe('The replacement text'),
      }),
    ),
    dryRun: z.boolean().default(false).describe('Only show the diff; leave the file unchanged'),
  }),
  create_directory: pathOnly,
  list_directory: pathOnly,
  list_directory_with_sizes: z.object({
    path,
    sortBy: z.enum(['name', 'size']).optional().default('name').describe('Order entries by name or by size'),
  }),
  directory_tree: z.object({ path, excludePatterns }),
  move_file: z.object({ source: z.string(), destination: z.string() }),
  search_files: z.object({ path, pattern: z.string(), excludePatterns }),
  get_file_info: pathOnly,
  list_allowed_directories: z.object({}),
} as const satisfies Record<FilesystemToolName, z.ZodType>;

/** Parsed input of one filesystem tool. */
export type FilesystemToolInput<Name extends FilesystemToolName> = z.output<(typeof filesystemToolInputSchemas)[Name]>;

const SCOPE = 'Works only inside the allowed folders.';

/** What each tool does, in our words, as the model reads it. */
export const FILESYSTEM_TOOL_DESCRIPTIONS: Record<FilesystemToolName, string> = {
  read_file: `Older name of read_text_file, kept for compatibility; prefer read_text_file. ${SCOPE}`,
  read_text_file:
    'Return the text of one file. Pass head to get only its first N lines, or tail to get only its last N ' +
    `lines (not both). Any file is read as text, whatever its extension. ${SCOPE}`,
  read_media_file: `Return an image, audio or other binary file base64-encoded, with its MIME type. ${SCOPE}`,
  read_multiple_files:
    'Read several files in one call. Each file comes back under its path; a file that cannot be read ' +
    `reports its own error and the others are still returned. ${SCOPE}`,
  write_file: `Create a file, or replace the whole content of an existing one, with the given text. ${SCOPE}`,
  edit_file:
    'Replace exact pieces of text in a file, one edit after another, and return a git-style diff of the ' +
    `change. With dryRun the diff is returned and the file is left as it was. ${SCOPE}`,
  create_directory: `Create a folder, with any missing parent folders; an existing folder is fine. ${SCOPE}`,
  list_directory: `List the entries of a folder, each marked [FILE] or [DIR]. ${SCOPE}`,
  list_directory_with_sizes: `List the entries of a folder with file sizes and totals, each marked [FILE] or [DIR]. ${SCOPE}`,
  directory_tree:
    'Return the tree under a folder as indented JSON: every entry has a name and a type (file or ' +
    `directory), and folders also have children. Entries matching excludePatterns are left out. ${SCOPE}`,
  move_file: `Move or rename a file or folder. Fails if something already exists at the destination. ${SCOPE}`,
  search_files:
    'Find files and folders under a folder whose path, relative to that folder, matches a glob pattern ' +
    `('*.md' for the top level, '**/*.md' at any depth). Returns full paths. ${SCOPE}`,
  get_file_info: `Return the size, times, permissions and type of a file or folder. ${SCOPE}`,
  list_allowed_directories: 'List the folders these tools may use; their subfolders may be used too.',
};

/** Declared kinds; writes become `egress` per call when they land in a shared folder. */
export const FILESYSTEM_TOOL_KINDS: Record<FilesystemToolName, ToolKind> = {
  read_file: 'read',
  read_text_file: 'read',
  read_media_file: 'read',
  read_multiple_files: 'read',
  write_file: 'write',
  edit_file: 'write',
  create_directory: 'write',
  list_directory: 'read',
  list_directory_with_sizes: 'read',
  directory_tree: 'read',
  move_file: 'write',
  search_files: 'read',
  get_file_info: 'read',
  list_allowed_directories: 'read',
};

function isFilesystemToolName(name: string): name is FilesystemToolName {
  return (FILESYSTEM_TOOL_NAMES as readonly string[]).includes(name);
}

/** The path a write-kind call changes: the file or folder written, or a move's destination. */
function writeTarget(name: FilesystemToolName, input: unknown): string | undefined {
  if (name === 'move_file') {
    const parsed = filesystemToolInputSchemas.move_file.safeParse(input);
    return parsed.success ? parsed.data.destination : undefined;
  }
  if (name === 'edit_file') {
    const parsed = filesystemToolInputSchemas.edit_file.safeParse(input);
    return parsed.success && !parsed.data.dryRun ? parsed.data.path : undefined;
  }
  const parsed = pathOnly.safeParse(input);
  return parsed.success ? parsed.data.path : undefined;
}

/**
 * The kind of one filesystem call as requested (architecture.md §4.4): a write whose target lies in
 * an egress folder (the shared one) is `egress`, including a move into it and excluding a dry-run
 * edit, which changes nothing (`read`). `folders` are the allowed folders as the caller sees them,
 * in the server's order. The kind does not depend on success: the result's `isError` says that.
 */
export function filesystemCallKind(options: {
  name: string;
  input: unknown;
  folders: ReadonlyArray<{ at: string; egress: boolean }>;
}): ToolKind {
  const { name, input, folders } = options;
  if (!isFilesystemToolName(name)) return 'read';
  const declared = FILESYSTEM_TOOL_KINDS[name];
  if (declared !== 'write') return declared;
  if (name === 'edit_file') {
    const parsed = filesystemToolInputSchemas.edit_file.safeParse(input);
    if (parsed.success && parsed.data.dryRun) return 'read';
  }
  const target = writeTarget(name, input);
  if (target === undefined) return declared;
  try {
    const resolved = resolveAllowedPath({ requested: target, directories: folders.map((folder) => folder.at) });
    return folders[resolved.directoryIndex]?.egress ? 'egress' : 'write';
  } catch (error) {
    if (ToolError.isInstance(error)) return declared;
    throw error;
  }
}
