type Callbacks = Set<() => void>;

const subscribers = new WeakMap<AbortSignal, Callbacks>();

/**
 * Runs `callback` once when `signal` aborts; returns an unsubscribe function. A run shares one
 * signal across many concurrent calls, so instead of one event listener per call (which trips
 * Node's MaxListeners warning and costs more) each signal gets a single listener that fans out.
 * If the signal is already aborted the callback is not called: check `signal.aborted` first.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = subscribers.get(signal);
  if (!callbacks) {
    const created: Callbacks = new Set();
    callbacks = created;
    subscribers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        const pending = [...created];
        created.clear();
        for (const pendingCallback of pending) pendingCallback();
      },
      { once: true },
    );
  }
  const registered = callbacks;
  registered.add(callback);
  return () => {
    registered.delete(callback);
  };
}
