import type { PacOutput } from '../pac-output.js';

/** One file of the final shared folder, with its content when it could be recovered. */
export type ArtifactFile = {
  /** Workspace path, e.g. `shared/plan.md`. */
  path: string;
  lastWriter: string | null;
  /** The file's text; null when neither the record nor the flattened text gives it. */
  content: string | null;
};

/**
 * The files of a final artifact with their contents (§5.4). A `content` string recorded on the
 * file entry wins; otherwise the content is cut out of the flattened `text`, which lists the tree
 * and then every file, in `files` order, as a `--- <path> ---` header line followed by its
 * content, sections separated by a blank line (`renderSharedArtifact` in tools/). A file whose
 * header is missing gets `content: null`, so callers can report it instead of passing it.
 */
export function artifactFiles(artifact: PacOutput['finalArtifact']): ArtifactFile[] {
  const { text, files } = artifact;
  const starts = new Map<string, number>();
  let cursor = 0;
  for (const file of files) {
    const header = `--- ${file.path} ---\n`;
    const at = text.indexOf(header, cursor);
    if (at === -1) continue;
    starts.set(file.path, at + header.length);
    cursor = at + header.length;
  }
  return files.map((file, position) => {
    const recorded = file.content;
    if (typeof recorded === 'string') return { path: file.path, lastWriter: file.lastWriter, content: recorded };
    const start = starts.get(file.path);
    if (start === undefined) return { path: file.path, lastWriter: file.lastWriter, content: null };
    const next = files.slice(position + 1).find((candidate) => starts.has(candidate.path));
    const end =
      next === undefined ? text.length : text.lastIndexOf(`\n\n--- ${next.path} ---\n`, starts.get(next.path));
    return { path: file.path, lastWriter: file.lastWriter, content: text.slice(start, Math.max(end, start)) };
  });
}
