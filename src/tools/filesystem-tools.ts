import { posix } from 'node:path';
import type { z } from 'zod';
import type { Tool } from '../spec/tool.js';
import {
  FILESYSTEM_TOOL_DESCRIPTIONS,
  FILESYSTEM_TOOL_KINDS,
  FILESYSTEM_TOOL_NAMES,
  type FilesystemToolInput,
  type FilesystemToolName,
  filesystemCallKind,
  filesystemToolInputSchemas,
} from './filesystem-tool-schemas.js';
import { globMatcher } from './glob-match.js';
import { ToolError } from './tool-error.js';
import { createUnifiedDiff } from './unified-diff.js';
import { sortedEntries, type VirtualDirectory, type VirtualNode } from './virtual-file-system.js';
import type { ViewPath, WorkspaceView } from './workspace.js';

// Texts follow what Node's fs errors and the official server print, so results read the same in
// both implementations (the parity test compares them); paths are the ones the caller sees.
const ERRNO_TEXT = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  EEXIST: 'file already exists',
  EBUSY: 'resource busy or locked',
  EINVAL: 'invalid argument',
} as const;
type Errno = keyof typeof ERRNO_TEXT;

function fsError(code: Errno, syscall: string, path?: string): ToolError {
  return new ToolError(`${code}: ${ERRNO_TEXT[code]}, ${syscall}${path === undefined ? '' : ` '${path}'`}`);
}

function renameError(code: Errno, source: ViewPath, destination: ViewPath): ToolError {
  return new ToolError(`${code}: ${ERRNO_TEXT[code]}, rename '${source.visible}' -> '${destination.visible}'`);
}

/** Size a disk reports for a directory (ext4), so sizes read like the real server's. */
const DIRECTORY_SIZE = 4096;

/** Human-readable size with the server's rounding: `512 B`, `1.50 KB`. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  if (bytes <= 0) return '0 B';
  const exponent = Math.floor(Math.log(bytes) / Math.log(1024));
  if (exponent <= 0) return `${bytes} B`;
  const unit = Math.min(exponent, units.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}

/** First `count` lines; like the server, line endings are kept as they are. */
function headLines(text: string, count: number): string {
  if (!(count > 0)) return '';
  const parts = text.split('\n');
  const partial = parts.pop()!;
  const lines = parts.slice(0, Math.ceil(count));
  if (lines.length < count && partial.length > 0) lines.push(partial);
  return lines.join('\n');
}

/** Last `count` lines, after CRLF → LF; a trailing newline counts as an empty last line. */
function tailLines(text: string, count: number): string {
  if (text === '' || count < 0) return '';
  return text.replace(/\r\n/g, '\n').split('\n').slice(-count).join('\n');
}

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

/**
 * Applies `edit_file` edits in order: an exact match of `oldText` is replaced first; otherwise a
 * run of lines equal to it up to surrounding whitespace is, keeping the first line's indentation
 * and the edit's relative indentation. An edit that matches nowhere fails the whole call.
 */
export function applyTextEdits(options: {
  content: string;
  edits: ReadonlyArray<{ oldText: string; newText: string }>;
}): string {
  let content = options.content;
  for (const edit of options.edits) {
    const oldText = edit.oldText.replace(/\r\n/g, '\n');
    const newText = edit.newText.replace(/\r\n/g, '\n');
    const at = content.indexOf(oldText);
    if (at >= 0) {
      content = content.slice(0, at) + newText + content.slice(at + oldText.length);
      continue;
    }
    const oldLines = oldText.split('\n');
    const lines = content.split('\n');
    let matched = false;
    for (let start = 0; start <= lines.length - oldLines.length && !matched; start++) {
      if (!oldLines.every((line, offset) => line.trim() === lines[start + offset]!.trim())) continue;
      const baseIndent = /^\s*/.exec(lines[start]!)?.[0] ?? '';
      const replacement = newText.split('\n').map((line, offset) => {
        if (offset === 0) return baseIndent + line.trimStart();
        const oldIndent = /^\s*/.exec(oldLines[offset] ?? '')?.[0] ?? '';
        const newIndent = /^\s*/.exec(line)?.[0] ?? '';
        if (oldIndent === '' || newIndent === '') return line;
        return baseIndent + ' '.repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
      });
      lines.splice(start, oldLines.length, ...replacement);
      content = lines.join('\n');
      matched = true;
    }
    if (!matched) throw new ToolError(`Could not find exact match for edit:\n${edit.oldText}`);
  }
  return content;
}

function fence(diff: string): string {
  let ticks = 3;
  while (diff.includes('`'.repeat(ticks))) ticks++;
  const marks = '`'.repeat(ticks);
  return `${marks}diff\n${diff}${marks}\n\n`;
}

type TreeEntry = { name: string; type: 'file' | 'directory'; children?: TreeEntry[] };

/** Entries a walk (`search_files`, `directory_tree`) visits between two yields to the event loop. */
const WALK_CHUNK = 64;

/** The filesystem operations of one participant's view, each as the official server behaves. */
class FilesystemOperations {
  #visited = 0;

  constructor(private readonly view: WorkspaceView) {}

  /**
   * Called for every entry a walk visits: yields to the event loop now and then, so a long walk
   * never blocks Ctrl-C or the call's timer, and stops once the call is cancelled.
   */
  async #step(signal: AbortSignal | undefined): Promise<void> {
    this.#visited++;
    if (this.#visited % WALK_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw new ToolError('Tool call was stopped before it finished');
  }

  private node(path: ViewPath): VirtualNode | undefined {
    return this.view.vfs.get(path.canonical);
  }

  readText(path: ViewPath, missingSyscall = 'open'): string {
    const node = this.node(path);
    if (node === undefined) throw fsError('ENOENT', missingSyscall, path.visible);
    if (node.kind === 'directory') throw fsError('EISDIR', 'read');
    return node.content;
  }

  directory(path: ViewPath): VirtualDirectory {
    const node = this.node(path);
    if (node === undefined) throw fsError('ENOENT', 'scandir', path.visible);
    if (node.kind === 'file') throw fsError('ENOTDIR', 'scandir', path.visible);
    return node;
  }

  readTextFile(input: FilesystemToolInput<'read_text_file'>): string {
    const path = this.view.resolve(input.path);
    if (input.head && input.tail) throw new ToolError('Cannot specify both head and tail parameters simultaneously');
    if (input.tail) return tailLines(this.readText(path, 'stat'), input.tail);
    if (input.head) return headLines(this.readText(path), input.head);
    return this.readText(path);
  }

  readMediaFile(input: FilesystemToolInput<'read_media_file'>): string {
    const path = this.view.resolve(input.path);
    const content = this.readText(path);
    const mimeType = MIME_TYPES[posix.extname(path.visible).toLowerCase()] ?? 'application/octet-stream';
    return `data:${mimeType};base64,${Buffer.from(content, 'utf8').toString('base64')}`;
  }

  readMultipleFiles(input: FilesystemToolInput<'read_multiple_files'>): string {
    return input.paths
      .map((requested) => {
        try {
          return `${requested}:\n${this.readText(this.view.resolve(requested))}\n`;
        } catch (error) {
          if (!ToolError.isInstance(error)) throw error;
          return `${requested}: Error - ${error.message}`;
        }
      })
      .join('\n---\n');
  }

  writeFile(input: FilesystemToolInput<'write_file'>, writer: string): string {
    const path = this.view.resolve(input.path);
    const found = this.view.vfs.lookup(path.canonical);
    if (found.status === 'found' && found.node.kind === 'directory') throw fsError('EISDIR', 'open', path.visible);
    if (found.status === 'missing' && !found.parentIsDirectory) throw fsError('ENOENT', 'open', path.visible);
    this.view.vfs.writeFile({ path: path.canonical, content: input.content, writer });
    return `Successfully wrote to ${input.path}`;
  }

  editFile(input: FilesystemToolInput<'edit_file'>, writer: string): string {
    const path = this.view.resolve(input.path);
    const original = this.readText(path).replace(/\r\n/g, '\n');
    const edited = applyTextEdits({ content: original, edits: input.edits });
    const diff = createUnifiedDiff({ path: path.visible, before: original, after: edited });
    if (!input.dryRun) this.view.vfs.writeFile({ path: path.canonical, content: edited, writer });
    return fence(diff);
  }

  createDirectory(input: FilesystemToolInput<'create_directory'>): string {
    const path = this.view.resolve(input.path);
    if (this.node(path)?.kind === 'file') throw fsError('EEXIST', 'mkdir', path.visible);
    this.view.vfs.createDirectory({ path: path.canonical });
    return `Successfully created directory ${input.path}`;
  }

  listDirectory(input: FilesystemToolInput<'list_directory'>): string {
    const directory = this.directory(this.view.resolve(input.path));
    return sortedEntries(directory)
      .map((entry) => `${entry.node.kind === 'directory' ? '[DIR]' : '[FILE]'} ${entry.name}`)
      .join('\n');
  }

  listDirectoryWithSizes(input: FilesystemToolInput<'list_directory_with_sizes'>): string {
    const entries = sortedEntries(this.directory(this.view.resolve(input.path))).map((entry) => ({
      name: entry.name,
      isDirectory: entry.node.kind === 'directory',
      size: entry.node.kind === 'file' ? entry.node.size : DIRECTORY_SIZE,
    }));
    const ordered = [...entries].sort((a, b) =>
      input.sortBy === 'size' ? b.size - a.size : a.name.localeCompare(b.name),
    );
    const lines = ordered.map(
      (entry) =>
        `${entry.isDirectory ? '[DIR]' : '[FILE]'} ${entry.name.padEnd(30)} ${entry.isDirectory ? '' : formatSize(entry.size).padStart(10)}`,
    );
    const files = entries.filter((entry) => !entry.isDirectory);
    const total = files.reduce((sum, entry) => sum + entry.size, 0);
    lines.push('', `Total: ${files.length} files, ${entries.length - files.length} directories`);
    lines.push(`Combined size: ${formatSize(total)}`);
    return lines.join('\n');
  }

  async directoryTree(input: FilesystemToolInput<'directory_tree'>, signal?: AbortSignal): Promise<string> {
    const root = input.path;
    // A plain name (no `*`) is excluded wherever it appears, as a file or as a folder.
    const matchers = input.excludePatterns.flatMap((pattern) =>
      pattern.includes('*') ? [globMatcher(pattern)] : [pattern, `**/${pattern}`, `**/${pattern}/**`].map(globMatcher),
    );
    const excluded = (relative: string): boolean => matchers.some((matches) => matches(relative));
    const build = async (current: string): Promise<TreeEntry[]> => {
      const directory = this.directory(this.view.resolve(current));
      const tree: TreeEntry[] = [];
      for (const entry of sortedEntries(directory)) {
        await this.#step(signal);
        const childPath = posix.join(current, entry.name);
        if (excluded(posix.relative(root, childPath))) continue;
        if (entry.node.kind === 'directory') {
          tree.push({ name: entry.name, type: 'directory', children: await build(childPath) });
        } else tree.push({ name: entry.name, type: 'file' });
      }
      return tree;
    };
    return JSON.stringify(await build(root), null, 2);
  }

  moveFile(input: FilesystemToolInput<'move_file'>, writer: string): string {
    const source = this.view.resolve(input.source);
    const destination = this.view.resolve(input.destination);
    const vfs = this.view.vfs;
    if (vfs.get(destination.canonical) !== undefined) {
      throw new ToolError(`Destination already exists: ${destination.visible}`);
    }
    if (vfs.get(source.canonical) === undefined) throw renameError('ENOENT', source, destination);
    const target = vfs.lookup(destination.canonical);
    if (target.status === 'missing' && !target.parentIsDirectory) throw renameError('ENOENT', source, destination);
    // The allowed folders themselves stay put, whatever a disk would allow.
    if (vfs.roots.some((root) => root === source.canonical || root.startsWith(`${source.canonical}/`))) {
      throw renameError('EBUSY', source, destination);
    }
    if (destination.canonical.startsWith(`${source.canonical}/`)) throw renameError('EINVAL', source, destination);
    vfs.move({ source: source.canonical, destination: destination.canonical, writer });
    return `Successfully moved ${input.source} to ${input.destination}`;
  }

  async searchFiles(input: FilesystemToolInput<'search_files'>, signal?: AbortSignal): Promise<string> {
    const root = this.view.resolve(input.path);
    const matches = globMatcher(input.pattern);
    const excludes = input.excludePatterns.map(globMatcher);
    const results: string[] = [];
    const search = async (at: ViewPath, directory: VirtualDirectory): Promise<void> => {
      for (const entry of sortedEntries(directory)) {
        await this.#step(signal);
        const child = this.view.child(at, entry.name);
        const relative = posix.relative(root.visible, child.visible);
        if (excludes.some((excluded) => excluded(relative))) continue;
        if (matches(relative)) results.push(child.visible);
        if (entry.node.kind === 'directory') await search(child, entry.node);
      }
    };
    await search(root, this.directory(root));
    return results.length > 0 ? results.join('\n') : 'No matches found';
  }

  getFileInfo(input: FilesystemToolInput<'get_file_info'>): string {
    const path = this.view.resolve(input.path);
    const node = this.node(path);
    if (node === undefined) throw fsError('ENOENT', 'stat', path.visible);
    const isDirectory = node.kind === 'directory';
    const info = {
      size: isDirectory ? DIRECTORY_SIZE : node.size,
      created: String(new Date(node.createdAt)),
      modified: String(new Date(node.modifiedAt)),
      accessed: String(new Date(node.modifiedAt)),
      isDirectory,
      isFile: !isDirectory,
      permissions: isDirectory ? '755' : '644',
    };
    return Object.entries(info)
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n');
  }

  listAllowedDirectories(): string {
    return `Allowed directories:\n${this.view.allowedDirectories.join('\n')}`;
  }
}

/**
 * The official filesystem server's 14 tools over one participant's view of the workspace, in the
 * server's order (or only `names`, in that order). Inputs must already be parsed with each tool's
 * `inputSchema` (the MCP server does so). Model mistakes throw `ToolError` with the server's
 * message texts; files written are attributed to `context.participantId`.
 */
export function createFilesystemTools(options: { view: WorkspaceView; names?: readonly FilesystemToolName[] }): Tool[] {
  const { view } = options;
  const ops = new FilesystemOperations(view);
  const define = <Input>(
    name: FilesystemToolName,
    inputSchema: z.ZodType<Input>,
    run: (input: Input, writer: string, signal: AbortSignal | undefined) => string | Promise<string>,
  ): Tool => {
    const tool: Tool<Input> = {
      name,
      description: FILESYSTEM_TOOL_DESCRIPTIONS[name],
      inputSchema,
      kind: FILESYSTEM_TOOL_KINDS[name],
      kindOf: (input) => filesystemCallKind({ name, input, folders: view.mounts }),
      execute: async ({ input, context }) => ({ content: await run(input, context.participantId, context.signal) }),
    };
    return tool;
  };
  const schemas = filesystemToolInputSchemas;
  const tools: Record<FilesystemToolName, Tool> = {
    read_file: define('read_file', schemas.read_file, (input) => ops.readTextFile(input)),
    read_text_file: define('read_text_file', schemas.read_text_file, (input) => ops.readTextFile(input)),
    read_media_file: define('read_media_file', schemas.read_media_file, (input) => ops.readMediaFile(input)),
    read_multiple_files: define('read_multiple_files', schemas.read_multiple_files, (input) =>
      ops.readMultipleFiles(input),
    ),
    write_file: define('write_file', schemas.write_file, (input, writer) => ops.writeFile(input, writer)),
    edit_file: define('edit_file', schemas.edit_file, (input, writer) => ops.editFile(input, writer)),
    create_directory: define('create_directory', schemas.create_directory, (input) => ops.createDirectory(input)),
    list_directory: define('list_directory', schemas.list_directory, (input) => ops.listDirectory(input)),
    list_directory_with_sizes: define('list_directory_with_sizes', schemas.list_directory_with_sizes, (input) =>
      ops.listDirectoryWithSizes(input),
    ),
    directory_tree: define('directory_tree', schemas.directory_tree, (input, _writer, signal) =>
      ops.directoryTree(input, signal),
    ),
    move_file: define('move_file', schemas.move_file, (input, writer) => ops.moveFile(input, writer)),
    search_files: define('search_files', schemas.search_files, (input, _writer, signal) =>
      ops.searchFiles(input, signal),
    ),
    get_file_info: define('get_file_info', schemas.get_file_info, (input) => ops.getFileInfo(input)),
    list_allowed_directories: define('list_allowed_directories', schemas.list_allowed_directories, () =>
      ops.listAllowedDirectories(),
    ),
  };
  const wanted = options.names ?? FILESYSTEM_TOOL_NAMES;
  return FILESYSTEM_TOOL_NAMES.filter((name) => wanted.includes(name)).map((name) => tools[name]);
}
