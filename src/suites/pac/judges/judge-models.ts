import type { BoundModel, EmitEvent } from '../../../spec/chat-model.js';
import type { PacJudgeParse } from './upstream-reading.js';

/**
 * What every PAC LLM judge needs: the `judge`-role models (one, or several for an ensemble), the
 * sample's event sink and its abort signal. `models` is a getter so that deterministic paths never
 * ask for the role (a plan without a judge model is valid when no LLM judge runs).
 */
export type PacJudgeContext = {
  models: () => readonly BoundModel[];
  emit: EmitEvent;
  signal?: AbortSignal;
  /** How replies are read (`--set judgeParse=…`); default `strict`. */
  judgeParse?: PacJudgeParse;
};

/** The `signal` field for judge options, present only when there is a signal. */
export function signalOf(context: PacJudgeContext): { signal?: AbortSignal } {
  return context.signal === undefined ? {} : { signal: context.signal };
}
