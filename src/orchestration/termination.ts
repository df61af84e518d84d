/** The marker an agent writes when it considers the whole task finished (pacbench.md §3). */
export const FIN_MARKER = '[FIN]';

/** True when `text` contains `[FIN]`, case-insensitively (`[fin]`, `[Fin]` …). */
export function containsFin(text: string): boolean {
  return text.toLowerCase().includes(FIN_MARKER.toLowerCase());
}

/**
 * The all-agents-finished rule (§4 step 7, `both-fin`): the last N messages come from the N
 * distinct participants and every one of them contains `[FIN]`. With one participant (a
 * standalone run) its last message decides; with two, the last message of each.
 */
export function allSaidFin({
  transcript,
  participantIds,
}: {
  transcript: ReadonlyArray<{ participantId: string; text: string }>;
  participantIds: readonly string[];
}): boolean {
  const count = participantIds.length;
  if (count === 0 || transcript.length < count) return false;
  const last = transcript.slice(-count);
  const speakers = new Set(last.map((entry) => entry.participantId));
  return (
    speakers.size === count &&
    participantIds.every((id) => speakers.has(id)) &&
    last.every((entry) => containsFin(entry.text))
  );
}

/** `[MILE: n]` markers of the legacy prompt (§4 step 8), in order of appearance. */
export function parseMilestones(text: string): number[] {
  return [...text.matchAll(/\[MILE:\s*(\d+(?:\.\d+)?)\s*\]/gi)].map((match) => Number(match[1]));
}
