/**
 * Whether `CONFIDANT_VALIDATE=1` asks a run to check every event and record against the run
 * format as it is built (a debug aid; the test setup sets it). Off, the run spine trusts what its
 * typed code builds and checks only what comes from outside.
 */
export function fullValidation(env: Record<string, string | undefined>): boolean {
  return env.CONFIDANT_VALIDATE === '1';
}
