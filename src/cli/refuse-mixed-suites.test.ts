import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { refuseMixedSuites } from './refuse-mixed-suites.js';

describe('refuseMixedSuites', () => {
  it('lets runs of one suite through', () => {
    expect(() =>
      refuseMixedSuites({
        runs: [
          { dir: '/w/runs/a', suite: 'pac' },
          { dir: '/w/runs/b', suite: 'pac' },
        ],
        cwd: '/w',
        command: 'report',
      }),
    ).not.toThrow();
  });

  it('refuses two suites as a user error naming each suite with its first run', () => {
    const refuse = () =>
      refuseMixedSuites({
        runs: [
          { dir: '/w/runs/a', suite: 'pac' },
          { dir: '/w/runs/b', suite: 'confaide' },
          { dir: '/w/runs/c', suite: 'pac' },
        ],
        cwd: '/w',
        command: 'report',
      });
    expect(refuse).toThrow(PlanValidationError);
    expect(refuse).toThrow(
      'report shows runs of one suite side by side, and these runs are of 2 suites: pac (runs/a), confaide (runs/b); run confidant report once per suite',
    );
  });
});
