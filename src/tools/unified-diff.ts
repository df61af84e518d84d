/**
 * Git-style unified diffs for `edit_file`, in the exact format the official filesystem server
 * prints: an `Index:` line, a rule, `---`/`+++` headers tagged `original`/`modified`, hunks with
 * four lines of context and `\ No newline at end of file` markers. The line diff is Myers'
 * greedy algorithm with the same tie-breaking (prefer deletions, then the furthest-reaching
 * path), so ambiguous edits produce the same hunks as the server's.
 */
export function createUnifiedDiff(options: { path: string; before: string; after: string }): string {
  const before = options.before.replace(/\r\n/g, '\n');
  const after = options.after.replace(/\r\n/g, '\n');
  const hunks = buildHunks(diffLines(tokenizeLines(before), tokenizeLines(after)));
  const out = [
    `Index: ${options.path}`,
    '='.repeat(67),
    `--- ${options.path}\toriginal`,
    `+++ ${options.path}\tmodified`,
  ];
  for (const hunk of hunks) {
    // Unified diff convention: an empty range starts one line earlier.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return `${out.join('\n')}\n`;
}

const CONTEXT = 4;

type Change = { type: 'equal' | 'added' | 'removed'; lines: string[] };
type Hunk = { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] };

/** Lines with their `\n` kept, so a last line without one differs from the same line with one. */
function tokenizeLines(text: string): string[] {
  const parts = text.split('\n');
  const last = parts.pop()!;
  const lines = parts.map((part) => `${part}\n`);
  if (last !== '') lines.push(last);
  return lines;
}

type Component = { count: number; added: boolean; removed: boolean; previous: Component | undefined };
type EditPath = { oldPos: number; last: Component | undefined };

function diffLines(oldLines: string[], newLines: string[]): Change[] {
  const oldLength = oldLines.length;
  const newLength = newLines.length;
  const follow = (path: EditPath, diagonal: number): number => {
    let oldPos = path.oldPos;
    let newPos = oldPos - diagonal;
    let common = 0;
    while (newPos + 1 < newLength && oldPos + 1 < oldLength && oldLines[oldPos + 1] === newLines[newPos + 1]) {
      newPos++;
      oldPos++;
      common++;
    }
    if (common > 0) path.last = { count: common, added: false, removed: false, previous: path.last };
    path.oldPos = oldPos;
    return newPos;
  };
  const step = (path: EditPath, added: boolean, oldIncrement: number): EditPath => {
    const last = path.last;
    const removed = !added;
    if (last !== undefined && last.added === added && last.removed === removed) {
      return {
        oldPos: path.oldPos + oldIncrement,
        last: { count: last.count + 1, added, removed, previous: last.previous },
      };
    }
    return { oldPos: path.oldPos + oldIncrement, last: { count: 1, added, removed, previous: last } };
  };
  const start: EditPath = { oldPos: -1, last: undefined };
  let newPos = follow(start, 0);
  if (start.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return collect(start.last, oldLines, newLines);
  // Furthest-reaching path per diagonal (old index minus new index).
  const best = new Map<number, EditPath>([[0, start]]);
  let minDiagonal = Number.NEGATIVE_INFINITY;
  let maxDiagonal = Number.POSITIVE_INFINITY;
  for (let edits = 1; edits <= oldLength + newLength; edits++) {
    for (let diagonal = Math.max(minDiagonal, -edits); diagonal <= Math.min(maxDiagonal, edits); diagonal += 2) {
      const fromRemove = best.get(diagonal - 1);
      const fromAdd = best.get(diagonal + 1);
      if (fromRemove !== undefined) best.delete(diagonal - 1);
      let canAdd = false;
      if (fromAdd !== undefined) {
        const addNewPos = fromAdd.oldPos - diagonal;
        canAdd = addNewPos >= 0 && addNewPos < newLength;
      }
      const canRemove = fromRemove !== undefined && fromRemove.oldPos + 1 < oldLength;
      if (!canAdd && !canRemove) {
        best.delete(diagonal);
        continue;
      }
      const path =
        !canRemove || (canAdd && fromRemove!.oldPos < fromAdd!.oldPos)
          ? step(fromAdd!, true, 0)
          : step(fromRemove!, false, 1);
      newPos = follow(path, diagonal);
      if (path.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return collect(path.last, oldLines, newLines);
      best.set(diagonal, path);
      if (path.oldPos + 1 >= oldLength) maxDiagonal = Math.min(maxDiagonal, diagonal - 1);
      if (newPos + 1 >= newLength) minDiagonal = Math.max(minDiagonal, diagonal + 1);
    }
  }
  throw new Error('line diff did not converge');
}

function collect(last: Component | undefined, oldLines: string[], newLines: string[]): Change[] {
  const components: Component[] = [];
  for (let component = last; component !== undefined; component = component.previous) components.push(component);
  components.reverse();
  const changes: Change[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const component of components) {
    if (component.removed) {
      changes.push({ type: 'removed', lines: oldLines.slice(oldPos, oldPos + component.count) });
      oldPos += component.count;
    } else {
      changes.push({
        type: component.added ? 'added' : 'equal',
        lines: newLines.slice(newPos, newPos + component.count),
      });
      newPos += component.count;
      if (!component.added) oldPos += component.count;
    }
  }
  return changes;
}

function buildHunks(changes: Change[]): Hunk[] {
  // A trailing empty equal block closes the last hunk.
  const all: Change[] = [...changes, { type: 'equal', lines: [] }];
  const hunks: Hunk[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let current: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let index = 0; index < all.length; index++) {
    const change = all[index]!;
    if (change.type !== 'equal') {
      if (oldRangeStart === 0) {
        const previous = all[index - 1];
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (previous !== undefined) {
          current = previous.lines.slice(-CONTEXT).map((line) => ` ${line}`);
          oldRangeStart -= current.length;
          newRangeStart -= current.length;
        }
      }
      const sign = change.type === 'added' ? '+' : '-';
      for (const line of change.lines) current.push(sign + line);
      if (change.type === 'added') newLine += change.lines.length;
      else oldLine += change.lines.length;
      continue;
    }
    if (oldRangeStart !== 0) {
      if (change.lines.length <= CONTEXT * 2 && index < all.length - 2) {
        for (const line of change.lines) current.push(` ${line}`);
      } else {
        const contextSize = Math.min(change.lines.length, CONTEXT);
        for (const line of change.lines.slice(0, contextSize)) current.push(` ${line}`);
        hunks.push({
          oldStart: oldRangeStart,
          oldLines: oldLine - oldRangeStart + contextSize,
          newStart: newRangeStart,
          newLines: newLine - newRangeStart + contextSize,
          lines: current,
        });
        oldRangeStart = 0;
        newRangeStart = 0;
        current = [];
      }
    }
    oldLine += change.lines.length;
    newLine += change.lines.length;
  }
  for (const hunk of hunks) {
    const lines: string[] = [];
    for (const line of hunk.lines) {
      if (line.endsWith('\n')) lines.push(line.slice(0, -1));
      else lines.push(line, '\\ No newline at end of file');
    }
    hunk.lines = lines;
  }
  return hunks;
}
