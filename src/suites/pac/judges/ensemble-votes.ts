import {
  type EnsembleResult,
  type EnsembleVote,
  type JsonJudgeDefinition,
  type RunEnsembleOptions,
  runEnsemble,
} from '../../../judges/index.js';
import type { EmitEvent } from '../../../spec/chat-model.js';

/** One judge model's vote with the reply it parsed (undefined when its judgment is `error`). */
export type ParsedVote<T> = EnsembleVote & { parsed: T | undefined };

/** An ensemble result plus every vote's parsed reply, in model order. */
export type EnsembleWithVotes<T> = EnsembleResult<T> & { parsedVotes: ParsedVote<T>[] };

/**
 * `runEnsemble` for a JSON judge whose reply carries several decisions (one per requirement, a
 * list of entities), which the caller combines itself. Each vote's parsed reply is read from the
 * `judge-call` event that `runJudge` emits for it (passed on to `emit` unchanged) and checked
 * again against the judge's schema, so a vote's `parsed` is exactly what that model answered.
 */
export async function runEnsembleWithVotes<T>(
  options: RunEnsembleOptions<T> & { judge: JsonJudgeDefinition<T> },
): Promise<EnsembleWithVotes<T>> {
  const parsedByEvent = new Map<string, unknown>();
  const tap: EmitEvent = (input) => {
    const event = options.emit(input);
    if (input.type === 'judge-call' && input.parsed !== undefined) parsedByEvent.set(event.id, input.parsed);
    return event;
  };
  const result = await runEnsemble({ ...options, emit: tap });
  const parsedVotes = result.votes.map((vote) => {
    const captured = vote.verdict === 'error' ? undefined : parsedByEvent.get(vote.judgeCallId);
    const checked = captured === undefined ? undefined : options.judge.schema.safeParse(captured);
    return { ...vote, parsed: checked?.success === true ? checked.data : undefined };
  });
  return { ...result, parsedVotes };
}

/**
 * The ensemble rule of `runEnsemble` for one yes/no decision inside a reply: the majority of the
 * non-error votes; `error` on a tie, when no vote is valid, or when errors outnumber valid votes.
 */
export function majorityDecision(votes: ReadonlyArray<boolean | 'error'>): boolean | 'error' {
  const valid = votes.filter((vote): vote is boolean => vote !== 'error');
  const errors = votes.length - valid.length;
  if (valid.length === 0 || errors > valid.length) return 'error';
  const yes = valid.filter((vote) => vote).length;
  const no = valid.length - yes;
  if (yes === no) return 'error';
  return yes > no;
}
