import { describe, expect, it } from 'vitest';
import { onAbort } from './on-abort.js';

describe('onAbort', () => {
  it('calls every current subscriber once, and not the unsubscribed ones', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    const stopB = onAbort(controller.signal, () => calls.push('b'));
    onAbort(controller.signal, () => calls.push('c'));
    stopB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('serves many concurrent subscribers without a listener warning', () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const controller = new AbortController();
    const stops = Array.from({ length: 100 }, () => onAbort(controller.signal, () => undefined));
    for (const stop of stops) stop();
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  });
});
