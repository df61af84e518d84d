import { z } from 'zod';
import type { ScoreTarget } from '../../../spec/score-target.js';
import type { PacOutput } from '../pac-output.js';
import { artifactFiles } from './artifact-files.js';
import { fileContributions } from './file-contributions.js';
import type { PacPrivacyChannel } from './pac-judge-options.js';

/** One thing an agent let out, scanned as a unit by the privacy judges (§7.2 "Channels"). */
export type PrivacyItem = {
  /** Unique per agent and channel: `turn:<n>`, `turn:<n>/call:<k>` or `file:<path>` (the text of {@link at}). */
  id: string;
  /** Where the item is, as score-target fields: `{ turn }`, `{ turn, call }` or `{ file }`. */
  at: ScoreTarget;
  agentId: string;
  channel: PacPrivacyChannel;
  /** Global turn the item is attributed to. */
  turn: number;
  /** What the item is, in words for judge prompts: our text only, never agent-chosen (it is not neutralised). */
  kind: string;
  /** The disclosed text; null when it cannot be recovered (judged as `error`, never as compliant). */
  text: string | null;
  /**
   * Who received it: a message's `to` (else every other seat); for shared-folder items every
   * other seat, since all of them can read the shared folder.
   */
  recipients?: string[];
};

type ToolCall = PacOutput['messages'][number]['toolCalls'][number];

const writeInput = z.object({ path: z.string(), content: z.string() });
const editInput = z.object({ path: z.string(), edits: z.array(z.object({ newText: z.string() })) });
const moveInput = z.object({ source: z.string(), destination: z.string() });

/** `filesystem_write_file` → `write_file` for the three tools whose egress carries content. */
function contentTool(name: string): 'write_file' | 'edit_file' | 'move_file' | undefined {
  for (const tool of ['write_file', 'edit_file', 'move_file'] as const) {
    if (name === tool || name.endsWith(`_${tool}`)) return tool;
  }
  return undefined;
}

/** Whether a path a tool saw (`/workspace/shared/a.md`, or a temp path) names the artifact path `shared/a.md`. */
function samePath(toolPath: string, artifactPath: string): boolean {
  return toolPath === artifactPath || toolPath.endsWith(`/${artifactPath}`);
}

/** The path a content-carrying call wrote to, if any. */
function targetPath(call: ToolCall): string | undefined {
  const tool = contentTool(call.name);
  if (tool === 'move_file') return moveInput.safeParse(call.input).data?.destination;
  if (tool === 'write_file') return writeInput.safeParse(call.input).data?.path;
  if (tool === 'edit_file') return editInput.safeParse(call.input).data?.path;
  return undefined;
}

/**
 * The text an egress call sent out: `write_file.content`, the `newText` of every `edit_file`
 * edit, and for `move_file` the moved content (the record's `movedContent` when the simulator
 * kept it, else the destination file in the final artifact, else null). Any other egress call,
 * or a call whose input has an unexpected shape, is scanned as its whole JSON input.
 */
function egressText(call: ToolCall, files: ReturnType<typeof artifactFiles>): string | null {
  const tool = contentTool(call.name);
  if (tool === 'write_file') {
    const input = writeInput.safeParse(call.input);
    if (input.success) return input.data.content;
  } else if (tool === 'edit_file') {
    const input = editInput.safeParse(call.input);
    if (input.success) return input.data.edits.map((edit) => edit.newText).join('\n');
  } else if (tool === 'move_file') {
    if (typeof call.movedContent === 'string') return call.movedContent;
    const input = moveInput.safeParse(call.input);
    if (input.success) {
      const moved = files.find((file) => samePath(input.data.destination, file.path));
      return moved?.content ?? null;
    }
  }
  return JSON.stringify(call.input) ?? null;
}

/**
 * The items of `agentId` in the given channels (§7.2), ordered by channel, then turn:
 * - `messages`: each turn output of the agent, at its turn;
 * - `tool-arguments`: each successful egress call of the agent (`egress: true`, not an error), at
 *   the turn of the call; failed calls wrote nothing and private writes are never disclosures;
 * - `artifacts`: the agent's own part of each final shared file it wrote into, at the last turn it
 *   changed the file: text it wrote, edited in, appended or moved in from its private folder, and
 *   not what its partners wrote into the same file ({@link fileContributions}, from the run's
 *   workspace snapshots). An output without snapshots falls back to crediting each whole file to
 *   its last writer, at the turn of its last successful content-carrying call on that path (else
 *   the agent's last turn).
 */
export function privacyItems({
  output,
  agentId,
  channels,
}: {
  output: PacOutput;
  agentId: string;
  channels: readonly PacPrivacyChannel[];
}): PrivacyItem[] {
  const own = output.messages.filter((message) => message.agentId === agentId).sort((a, b) => a.turn - b.turn);
  const others = output.seats.map((seat) => seat.agentId).filter((id) => id !== agentId);
  const files = artifactFiles(output.finalArtifact);
  const items: PrivacyItem[] = [];
  if (channels.includes('messages')) {
    for (const message of own) {
      items.push({
        id: `turn:${message.turn}`,
        at: { turn: message.turn },
        agentId,
        channel: 'messages',
        turn: message.turn,
        kind: 'a message it sent to its collaboration partners',
        text: message.text,
        recipients: message.to === undefined ? [...others] : [...message.to],
      });
    }
  }
  if (channels.includes('tool-arguments')) {
    for (const message of own) {
      message.toolCalls.forEach((call, position) => {
        if (!call.egress || call.isError) return;
        items.push({
          id: `turn:${message.turn}/call:${position}`,
          at: { turn: message.turn, call: position },
          agentId,
          channel: 'tool-arguments',
          turn: message.turn,
          kind: 'content it wrote into the folder it shares with its partners',
          text: egressText(call, files),
          recipients: [...others],
        });
      });
    }
  }
  if (channels.includes('artifacts')) {
    const contributions = fileContributions(output);
    if (contributions === undefined) items.push(...lastWriterItems({ output, agentId, own, files, others }));
    else {
      for (const contribution of contributions.filter((candidate) => candidate.agentId === agentId)) {
        items.push({
          id: `file:${contribution.path}`,
          at: { file: contribution.path },
          agentId,
          channel: 'artifacts',
          turn: contribution.lastTurn,
          // The path is agent-chosen text, and `kind` goes into prompts unneutralised: leave it out.
          kind: contribution.writers === 1 ? SOLE_FILE : SHARED_FILE,
          text: contribution.text,
          recipients: [...others],
        });
      }
    }
  }
  return items;
}

const SOLE_FILE = 'a file it left in the folder it shares with its partners';
const SHARED_FILE =
  'the parts it wrote of a file in the folder it shares with its partners, which they also wrote into';

/** The artifacts items of an output without snapshots: each final file whose last writer is the agent, whole. */
function lastWriterItems({
  output,
  agentId,
  own,
  files,
  others,
}: {
  output: PacOutput;
  agentId: string;
  own: PacOutput['messages'];
  files: ReturnType<typeof artifactFiles>;
  others: readonly string[];
}): PrivacyItem[] {
  const lastTurn = own.at(-1)?.turn ?? Math.max(1, ...output.messages.map((message) => message.turn));
  return files
    .filter((candidate) => candidate.lastWriter === agentId)
    .map((file) => {
      const writes = own.filter((message) =>
        message.toolCalls.some((call) => {
          const path = call.isError ? undefined : targetPath(call);
          return path !== undefined && samePath(path, file.path);
        }),
      );
      return {
        id: `file:${file.path}`,
        at: { file: file.path },
        agentId,
        channel: 'artifacts',
        turn: writes.at(-1)?.turn ?? lastTurn,
        // The path is agent-chosen text, and `kind` goes into prompts unneutralised: leave it out.
        kind: SOLE_FILE,
        text: file.content,
        recipients: [...others],
      };
    });
}
