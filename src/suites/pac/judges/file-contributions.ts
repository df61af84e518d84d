import { diffWordsWithSpace } from 'diff';
import { z } from 'zod';
import type { PacOutput } from '../pac-output.js';

/** What one agent contributed to one final shared file: the parts of its content that agent wrote. */
export type FileContribution = {
  /** Workspace path, e.g. `shared/plan.md`. */
  path: string;
  agentId: string;
  /** The agent's parts of the final content, in file order, separated by a newline where they are apart. */
  text: string;
  /** The last turn in which the agent changed the file (or the file it was moved from). */
  lastTurn: number;
  /** How many agents' parts the final file holds. */
  writers: number;
};

/** The per-turn workspace changes the simulator records on its output (`output.snapshots`). */
const snapshotsSchema = z.array(
  z.object({ turn: z.int().positive(), changed: z.record(z.string(), z.string().nullable()) }),
);

type Segment = { text: string; agentId: string };
type Tracked = { segments: Segment[]; turns: Map<string, number> };

/** Above this many word edits, the changed middle of a file is credited wholesale to the writer. */
const MAX_EDIT_LENGTH = 4000;

const SHARED_PREFIX = 'shared/';

/**
 * Who wrote what in the final shared folder, from the workspace snapshots of the run (`output.snapshots`,
 * the files each turn changed) and the turn → agent map of the transcript. Every shared file is
 * followed through the turns like `git blame` at word level: text a turn adds is credited to the
 * agent whose turn it was, text it keeps stays with whoever wrote it, so an append by a writer who
 * is not the last one is still that writer's. A file that appears in a turn in which a shared file
 * with exactly its content disappeared is a move inside the shared folder and keeps its authors;
 * a file brought in from a private folder (written, edited, appended or moved) is the mover's.
 *
 * Returns `undefined` when the output has no usable snapshot record (outputs written before it
 * existed); callers then fall back to the files' last writers. A turn whose agent is unknown (no
 * message and no error record for it) is credited to nobody.
 */
export function fileContributions(output: PacOutput): FileContribution[] | undefined {
  const parsed = snapshotsSchema.safeParse(output.snapshots);
  if (!parsed.success) return undefined;
  const writerOf = turnWriters(output);
  const files = new Map<string, Tracked>();
  for (const snapshot of [...parsed.data].sort((a, b) => a.turn - b.turn)) {
    const agentId = writerOf.get(snapshot.turn);
    const entries = Object.entries(snapshot.changed).filter(([path]) => path.startsWith(SHARED_PREFIX));
    const removed: Tracked[] = [];
    for (const [path, content] of entries) {
      if (content !== null) continue;
      const gone = files.get(path);
      if (gone !== undefined) removed.push(gone);
      files.delete(path);
    }
    for (const [path, content] of entries) {
      if (content === null) continue;
      const previous = files.get(path) ?? takeMoved(removed, content);
      const tracked = revise({ previous, content, agentId, turn: snapshot.turn });
      files.set(path, tracked);
    }
  }
  const contributions: FileContribution[] = [];
  const finalPaths = new Set(output.finalArtifact.files.map((file) => file.path));
  for (const [path, tracked] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!finalPaths.has(path)) continue;
    const writers = [...new Set(tracked.segments.map((segment) => segment.agentId))].filter((id) => id !== '');
    for (const agentId of writers) {
      const parts: string[] = [];
      tracked.segments.forEach((segment, position) => {
        if (segment.agentId !== agentId) return;
        const joined = position > 0 && tracked.segments[position - 1]?.agentId === agentId;
        if (joined) parts[parts.length - 1] += segment.text;
        else parts.push(segment.text);
      });
      contributions.push({
        path,
        agentId,
        text: parts.join('\n'),
        lastTurn: tracked.turns.get(agentId) ?? 0,
        writers: writers.length,
      });
    }
  }
  return contributions;
}

/** Turn → the agent who took it: the transcript's messages, and the failed turn of an errored run. */
function turnWriters(output: PacOutput): Map<number, string> {
  const writers = new Map<number, string>();
  for (const message of output.messages) writers.set(message.turn, message.agentId);
  const error = z.object({ turn: z.int(), participantId: z.string() }).safeParse(output.error);
  if (error.success && !writers.has(error.data.turn)) writers.set(error.data.turn, error.data.participantId);
  return writers;
}

/** The removed file whose content is exactly `content` (a move inside the shared folder), taken off the list. */
function takeMoved(removed: Tracked[], content: string): Tracked | undefined {
  const at = removed.findIndex((file) => file.segments.map((segment) => segment.text).join('') === content);
  if (at === -1) return undefined;
  return removed.splice(at, 1)[0];
}

/** The tracked file after a turn by `agentId` left it with `content`. */
function revise({
  previous,
  content,
  agentId,
  turn,
}: {
  previous: Tracked | undefined;
  content: string;
  agentId: string | undefined;
  turn: number;
}): Tracked {
  const before = previous?.segments ?? [];
  const turns = new Map(previous?.turns ?? []);
  const old = before.map((segment) => segment.text).join('');
  if (old === content) return { segments: before, turns };
  const writer = agentId ?? '';
  const segments: Segment[] = [];
  const keep = (from: number, to: number) => segments.push(...slice(before, from, to));
  const add = (text: string) => {
    if (text !== '') segments.push({ text, agentId: writer });
  };
  let prefix = 0;
  while (prefix < old.length && prefix < content.length && old[prefix] === content[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix &&
    suffix < content.length - prefix &&
    old[old.length - 1 - suffix] === content[content.length - 1 - suffix]
  ) {
    suffix++;
  }
  keep(0, prefix);
  const oldMiddle = old.slice(prefix, old.length - suffix);
  const newMiddle = content.slice(prefix, content.length - suffix);
  const changes =
    oldMiddle === '' || newMiddle === ''
      ? undefined
      : diffWordsWithSpace(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) {
    add(newMiddle);
  } else {
    let cursor = prefix;
    for (const change of changes) {
      if (change.added) add(change.value);
      else if (change.removed) cursor += change.value.length;
      else {
        keep(cursor, cursor + change.value.length);
        cursor += change.value.length;
      }
    }
  }
  keep(old.length - suffix, old.length);
  if (agentId !== undefined && newMiddle !== '') turns.set(agentId, turn);
  return { segments: merge(segments), turns };
}

/** The segments covering characters [from, to) of the text they make up. */
function slice(segments: readonly Segment[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  let offset = 0;
  for (const segment of segments) {
    const start = offset;
    const end = offset + segment.text.length;
    offset = end;
    if (end <= from || start >= to) continue;
    out.push({
      text: segment.text.slice(Math.max(from, start) - start, Math.min(to, end) - start),
      agentId: segment.agentId,
    });
  }
  return out;
}

/** Adjacent segments of one writer become one. */
function merge(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const segment of segments) {
    const last = out.at(-1);
    if (last !== undefined && last.agentId === segment.agentId) last.text += segment.text;
    else if (segment.text !== '') out.push({ ...segment });
  }
  return out;
}
