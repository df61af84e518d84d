/** One try at an item: its answer, or why there is none (e.g. the reply never parsed). */
export type StageTry<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** What a regeneration is told: the problems of the previous attempt and its answer, when it had one. */
export type StageFeedback<T> = { problems: string[]; previous?: T };

/** One item of a checked stage (a unit, or a unit's part for one agent). */
export type CheckedItem<T> = {
  /** Stable id, unique in the stage. */
  key: string;
  /** An answer an earlier session journaled: taken without a call, then checked like a new one. */
  prior?: { attempt: number; value: T };
  /**
   * Attempts an earlier session spent without an accepted answer and the problems of the last,
   * so the attempt count continues and the next attempt gets them as feedback.
   */
  spent?: { attempts: number; problems: string[] };
};

/** How an item ended: accepted at an attempt, or given up after `attempts` with the last problems. */
export type CheckedOutcome<T> =
  | { ok: true; value: T; attempt: number }
  | { ok: false; problems: string[]; attempts: number };

/** Runs tasks; the default starts them all at once. */
export type TaskLimit = <R>(task: () => Promise<R>) => Promise<R>;

/**
 * Runs one checked stage: every item gets an answer (from `prior`, else from `generate`), then in
 * rounds the answers are checked together (`check` sees every open item's answer, so checks that
 * span items work) and exactly the items with problems are regenerated, each told its problems
 * and previous answer, until a round finds no problem: then every open item is accepted
 * (`onAccepted`, in item order). An item still failing at its `maxAttempts`-th attempt is given
 * up (`onExhausted`, which may throw to end the stage) and leaves the stage; the others go on.
 * A try that yields no answer counts as a failed attempt with its problems.
 *
 * Tasks run under `limit`. After the first failure (a provider error, an abort, a throwing hook)
 * no further task starts; the call waits for the ones in flight (so nothing keeps spending tokens
 * after it returns), then rethrows it.
 */
export async function runCheckedStage<T>({
  items,
  maxAttempts,
  generate,
  check,
  limit = (task) => task(),
  onResumed,
  onGenerated,
  onRejected,
  onExhausted,
  onAccepted,
}: {
  items: readonly CheckedItem<T>[];
  maxAttempts: number;
  generate(request: { key: string; attempt: number; feedback?: StageFeedback<T> }): Promise<StageTry<T>>;
  /** The problems by key of the answers given (a key without problems may be left out). */
  check(answers: ReadonlyMap<string, T>): ReadonlyMap<string, readonly string[]>;
  limit?: TaskLimit;
  onResumed?(event: { key: string; attempt: number }): void;
  /** After each call; `regeneration` is false for an item's first call in this session. */
  onGenerated?(event: { key: string; attempt: number; regeneration: boolean }): void;
  /** An attempt failed its checks (or gave no answer). */
  onRejected?(event: { key: string; attempt: number; problems: string[] }): void;
  onExhausted?(event: { key: string; attempts: number; problems: string[] }): void;
  onAccepted?(event: { key: string; attempt: number; value: T }): Promise<void> | void;
}): Promise<Map<string, CheckedOutcome<T>>> {
  type State = { attempt: number } & StageTry<T>;
  const states = new Map<string, State>();
  const outcomes = new Map<string, CheckedOutcome<T>>();
  const attempt = async (key: string, number: number, feedback: StageFeedback<T> | undefined, again: boolean) => {
    const tried = await generate({ key, attempt: number, ...(feedback === undefined ? {} : { feedback }) });
    states.set(key, { attempt: number, ...tried });
    onGenerated?.({ key, attempt: number, regeneration: again });
  };

  await runAll(
    limit,
    items.map((item) => async () => {
      if (item.prior !== undefined) {
        states.set(item.key, { attempt: item.prior.attempt, ok: true, value: item.prior.value });
        onResumed?.({ key: item.key, attempt: item.prior.attempt });
      } else if (item.spent !== undefined && item.spent.attempts >= maxAttempts) {
        outcomes.set(item.key, { ok: false, problems: item.spent.problems, attempts: item.spent.attempts });
      } else {
        const feedback = item.spent === undefined ? undefined : { problems: item.spent.problems };
        await attempt(item.key, (item.spent?.attempts ?? 0) + 1, feedback, false);
      }
    }),
  );

  for (;;) {
    const open = items.filter((item) => !outcomes.has(item.key));
    if (open.length === 0) return outcomes;
    const answers = new Map<string, T>();
    const problems = new Map<string, string[]>();
    for (const { key } of open) {
      const state = stateOf(states, key);
      if (state.ok) answers.set(key, state.value);
      else problems.set(key, state.problems);
    }
    for (const [key, found] of check(answers)) {
      if (found.length > 0 && answers.has(key)) problems.set(key, [...found]);
    }
    if (problems.size === 0) {
      for (const { key } of open) {
        const state = stateOf(states, key);
        if (!state.ok) continue;
        await onAccepted?.({ key, attempt: state.attempt, value: state.value });
        outcomes.set(key, { ok: true, value: state.value, attempt: state.attempt });
      }
      return outcomes;
    }
    await runAll(
      limit,
      open
        .filter(({ key }) => problems.has(key))
        .map(({ key }) => async () => {
          const state = stateOf(states, key);
          const found = problems.get(key) ?? [];
          onRejected?.({ key, attempt: state.attempt, problems: found });
          if (state.attempt >= maxAttempts) {
            onExhausted?.({ key, attempts: state.attempt, problems: found });
            outcomes.set(key, { ok: false, problems: found, attempts: state.attempt });
            return;
          }
          await attempt(
            key,
            state.attempt + 1,
            { problems: found, ...(state.ok ? { previous: state.value } : {}) },
            true,
          );
        }),
    );
  }
}

async function runAll(limit: TaskLimit, tasks: Array<() => Promise<void>>): Promise<void> {
  let failure: { error: unknown } | undefined;
  await Promise.all(
    tasks.map((task) =>
      limit(async () => {
        if (failure !== undefined) return;
        try {
          await task();
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure !== undefined) throw failure.error;
}

function stateOf<S>(states: Map<string, S>, key: string): S {
  const state = states.get(key);
  if (state === undefined) throw new Error(`item ${key} has no answer`);
  return state;
}
