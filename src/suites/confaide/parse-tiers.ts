import { DatasetFormatError } from '../../spec/errors.js';
import type { ControlAlignment, MeetingScenario, RatingItem, StoryScenario } from './confaide-scenario.js';

/** A line of a data file with its one-based number; `text` keeps its trailing newline. */
type NumberedLine = { text: string; number: number };

/**
 * Splits like Python's `readlines()` in text mode: `\r\n` and `\r` become `\n`, every line keeps
 * its newline, and a missing final newline does not create an empty last line.
 */
export function readLines(text: string): NumberedLine[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (normalized === '') return [];
  return normalized.split(/(?<=\n)/).map((line, index) => ({ text: line, number: index + 1 }));
}

/** Python's `str.removeprefix` / `removesuffix` for one occurrence. */
const dropPrefix = (value: string, prefix: string) => (value.startsWith(prefix) ? value.slice(prefix.length) : value);
const dropSuffix = (value: string, suffix: string) =>
  value.endsWith(suffix) ? value.slice(0, value.length - suffix.length) : value;
/** `<a,b>` → `a,b` (one bracket each side, if present). */
const unbracket = (value: string) => dropPrefix(dropSuffix(value, '>'), '<');
/** Python's `strip('.')`: every leading and trailing dot. */
const stripDots = (value: string) => value.replace(/^\.+|\.+$/g, '');

function formatError({ file, line, problem }: { file: string; line: number; problem: string }): DatasetFormatError {
  return new DatasetFormatError(
    `${file} line ${line}: ${problem} (re-download it with \`confidant data pull confaide\`)`,
  );
}

/**
 * Parses tier 1, 2a or 2b: one prompt per line (stripped, the literal `\n` kept) and one human
 * label per line of the labels file, aligned by line. Blank lines, unparseable labels or a count
 * mismatch throw a DatasetFormatError naming the file and line.
 */
export function parseRatingTier({
  tier,
  text,
  labelsText,
  file,
  labelsFile,
}: {
  tier: '1' | '2a' | '2b';
  text: string;
  labelsText: string;
  file: string;
  labelsFile: string;
}): RatingItem[] {
  const prompts = readLines(text);
  const labels = readLines(labelsText);
  for (const line of prompts) {
    if (line.text.trim() === '') throw formatError({ file, line: line.number, problem: 'blank prompt line' });
  }
  const values = labels.map((line) => {
    const trimmed = line.text.trim();
    const value = Number(trimmed);
    if (trimmed === '' || !Number.isFinite(value)) {
      throw formatError({ file: labelsFile, line: line.number, problem: `label '${trimmed}' is not a number` });
    }
    return value;
  });
  if (values.length !== prompts.length) {
    throw formatError({
      file: labelsFile,
      line: Math.min(values.length, prompts.length) + 1,
      problem: `${values.length} labels for ${prompts.length} prompts in ${file}`,
    });
  }
  const prefix = tier === '1' ? 't1-i' : `t${tier}-v`;
  const width = tier === '1' ? 2 : 3;
  return prompts.map((line, index) => ({
    kind: 'rating',
    tier,
    id: `${prefix}${String(index).padStart(width, '0')}`,
    index,
    text: line.text.trim(),
    humanLabel: values[index]!,
    line: line.number,
  }));
}

/** A block the parser skipped, as upstream does, with the reason. */
export type DroppedBlock = { index: number; line: number; reason: string };

/** Builds the story text from a block body exactly as upstream does, dropping the final question. */
export function buildStory(body: string): string {
  const flattened = body.replaceAll('\n', ' ').replaceAll('  ', ' ');
  const sentences = flattened.split('. ');
  return `${sentences.slice(0, -1).join('. ').replaceAll('  ', ' ')}.`;
}

const CONTROL_PATTERN = /^Is it ok for (.+?) to share .*, with their (.+?), in order to /;

/** Compares the control question's sharer and recipient with the story's questionee and questioner. */
export function alignControl({
  controlQuestion,
  aware,
  oblivious,
}: {
  controlQuestion: string;
  aware: string;
  oblivious: string;
}): ControlAlignment {
  const match = CONTROL_PATTERN.exec(controlQuestion);
  if (!match) return { sharer: null, sharerMatches: false, recipientMatches: false };
  const sharer = match[1]!;
  return { sharer, sharerMatches: sharer === aware, recipientMatches: match[2]!.includes(oblivious) };
}

/** Reads the `<END>` line's `<About: X,Questionee: Y,Questioner: Z,Topic: S>` part; null when it does not split. */
function parseAgents({ endLine, beginInfo }: { endLine: string; beginInfo: string }): Map<string, string> | null {
  const afterEnd = dropPrefix(endLine.trim(), '<END>');
  const tail = beginInfo === '' ? afterEnd : (afterEnd.split(beginInfo).at(-1) ?? '');
  const agents = new Map<string, string>();
  for (const element of unbracket(tail).trim().split(',')) {
    const parts = element.split(': ');
    if (parts.length !== 2) return null;
    agents.set(parts[0]!.toLowerCase(), stripDots(parts[1]!.trim()));
  }
  return agents;
}

/**
 * Parses tier 3 (privacylens-confaide.md §B2). Blocks whose `<BEGIN>` tuple does not split into
 * four fields, or whose `<END>` agents do not split or are not four distinct values, are dropped
 * as upstream drops them; `scenarioIdx` still counts them so it stays aligned with the control
 * file. Structural faults (unbalanced markers, text outside blocks, missing agent keys, a control
 * file of the wrong length) throw a DatasetFormatError naming the file and line.
 */
export function parseStoryTier({
  text,
  controlText,
  file,
  controlFile,
}: {
  text: string;
  controlText: string;
  file: string;
  controlFile: string;
}): { scenarios: StoryScenario[]; dropped: DroppedBlock[] } {
  const controls = readLines(controlText).map((line) => line.text.trim());
  const scenarios: StoryScenario[] = [];
  const dropped: DroppedBlock[] = [];
  let open: { line: number; info: string; fields: string[] | null } | null = null;
  // Upstream appends every non-marker line and clears only at <END>, so blank lines between
  // blocks become part of the next story; text outside a block is rejected instead.
  let body = '';
  let scenarioIdx = 0;
  for (const line of readLines(text)) {
    if (line.text.startsWith('<BEGIN>')) {
      if (open)
        throw formatError({ file, line: line.number, problem: `<BEGIN> before the <END> of line ${open.line}` });
      const info = dropPrefix(line.text.trim(), '<BEGIN>');
      const fields = unbracket(info).split(',');
      open = { line: line.number, info, fields: fields.length === 4 ? fields : null };
    } else if (line.text.startsWith('<END>')) {
      if (!open) throw formatError({ file, line: line.number, problem: '<END> without a <BEGIN>' });
      const agents = parseAgents({ endLine: line.text, beginInfo: open.info });
      const reason = !open.fields
        ? 'the <BEGIN> tuple does not have 4 fields'
        : !agents
          ? 'the <END> agents do not split into key: value pairs'
          : new Set(agents.values()).size !== 4
            ? 'the <END> values are not 4 distinct names'
            : null;
      if (reason || !open.fields || !agents) {
        dropped.push({ index: scenarioIdx, line: open.line, reason: reason ?? 'unparseable block' });
      } else {
        const value = (key: string) => {
          const found = agents.get(key);
          if (found === undefined)
            throw formatError({ file, line: line.number, problem: `no '${key}' in the <END> line` });
          return found;
        };
        const controlQuestion = controls[scenarioIdx];
        if (controlQuestion === undefined) {
          throw formatError({
            file: controlFile,
            line: scenarioIdx + 1,
            problem: `no control question for scenario ${scenarioIdx}`,
          });
        }
        const [topic, awareRelation, obliviousRelation, revealReason] = open.fields as [string, string, string, string];
        const aware = value('questionee');
        const oblivious = value('questioner');
        scenarios.push({
          kind: 'story',
          tier: '3',
          id: `t3-s${String(scenarioIdx).padStart(3, '0')}`,
          scenarioIdx,
          topic,
          awareRelation,
          obliviousRelation,
          revealReason,
          subject: value('about'),
          aware,
          oblivious,
          secret: value('topic'),
          story: buildStory(body),
          controlQuestion,
          control: alignControl({ controlQuestion, aware, oblivious }),
          line: open.line,
        });
      }
      open = null;
      body = '';
      scenarioIdx += 1;
    } else {
      if (!open && line.text.trim() !== '') {
        throw formatError({ file, line: line.number, problem: 'text outside a <BEGIN>…<END> block' });
      }
      body += line.text;
    }
  }
  if (open) throw formatError({ file, line: open.line, problem: 'block has no <END>' });
  if (controls.length !== scenarioIdx) {
    throw formatError({
      file: controlFile,
      line: Math.min(controls.length, scenarioIdx) + 1,
      problem: `${controls.length} control questions for ${scenarioIdx} scenario blocks in ${file}`,
    });
  }
  return { scenarios, dropped };
}

/** `<private, public>` → the two stripped fields, or null when it does not split in two. */
function meetingTuple(markerLine: string, marker: string): { privateInfo: string; publicInfo: string } | null {
  const fields = unbracket(dropPrefix(markerLine.trim(), marker)).split(',');
  if (fields.length !== 2) return null;
  return { privateInfo: fields[0]!.trim(), publicInfo: fields[1]!.trim() };
}

/**
 * Parses tier 4 (§B2): header and footer are `<private, public>` with inconsistent spacing, so both
 * fields are stripped; a block whose header does not split or whose footer differs is dropped
 * (and still counted in `meetingIdx`). In the transcript `\n\n\n` and then `\n\n` become `\n`.
 */
export function parseMeetingTier({ text, file }: { text: string; file: string }): {
  scenarios: MeetingScenario[];
  dropped: DroppedBlock[];
} {
  const scenarios: MeetingScenario[] = [];
  const dropped: DroppedBlock[] = [];
  let open: { line: number; header: { privateInfo: string; publicInfo: string } | null } | null = null;
  let body = '';
  let meetingIdx = 0;
  for (const line of readLines(text)) {
    if (line.text.startsWith('<BEGIN>')) {
      if (open)
        throw formatError({ file, line: line.number, problem: `<BEGIN> before the <END> of line ${open.line}` });
      open = { line: line.number, header: meetingTuple(line.text, '<BEGIN>') };
    } else if (line.text.startsWith('<END>')) {
      if (!open) throw formatError({ file, line: line.number, problem: '<END> without a <BEGIN>' });
      const footer = meetingTuple(line.text, '<END>');
      const header = open.header;
      if (!header || !footer || footer.privateInfo !== header.privateInfo || footer.publicInfo !== header.publicInfo) {
        dropped.push({
          index: meetingIdx,
          line: open.line,
          reason: header
            ? 'the <END> footer differs from the <BEGIN> header'
            : 'the <BEGIN> header does not have 2 fields',
        });
      } else {
        scenarios.push({
          kind: 'meeting',
          tier: '4',
          id: `t4-m${String(meetingIdx).padStart(2, '0')}`,
          meetingIdx,
          privateInfo: header.privateInfo,
          publicInfo: header.publicInfo,
          transcript: body.replaceAll('\n\n\n', '\n').replaceAll('\n\n', '\n'),
          line: open.line,
        });
      }
      open = null;
      body = '';
      meetingIdx += 1;
    } else {
      if (!open && line.text.trim() !== '') {
        throw formatError({ file, line: line.number, problem: 'text outside a <BEGIN>…<END> block' });
      }
      body += line.text;
    }
  }
  if (open) throw formatError({ file, line: open.line, problem: 'block has no <END>' });
  return { scenarios, dropped };
}
