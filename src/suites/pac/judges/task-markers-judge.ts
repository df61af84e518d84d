import { keywordJudge } from '../../../judges/index.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import type { RequirementOutcome } from './task-evaluation.js';

/** Scorer-facing id of the deterministic task judge (§8.4); it has no template. */
export const TASK_MARKERS_JUDGE = 'pac-task-markers';

/**
 * The deterministic task judge `pac-task-markers` (§8.4) for starter data: requirement i is
 * achieved when every string of `checks.requirementMarkers[i]` appears in one message or in the
 * final shared folder (case-insensitive, whitespace-normalised). A scenario without markers (paper
 * data), or a requirement without any, cannot be judged this way: `error` with the fix.
 */
export function judgeTaskByMarkers({
  scenario,
  output,
}: {
  scenario: PacScenario;
  output: PacOutput;
}): RequirementOutcome[] {
  const markers = scenario.checks?.requirementMarkers;
  const messages = [...output.messages].sort((a, b) => a.turn - b.turn);
  return scenario.goal.requirements.map((_, index) => {
    const wanted = markers?.[index] ?? [];
    if (wanted.length === 0) {
      return {
        index,
        status: 'error',
        turns: [],
        inArtifact: false,
        judgeCalls: [],
        explanation: 'the scenario has no requirement markers for this requirement; use taskMode=messages or artifact',
      };
    }
    const holds = (text: string) => keywordJudge({ text, keywords: wanted, mode: 'all', present: 'pass' }).matched;
    const turns = messages.filter((message) => holds(message.text)).map((message) => message.turn);
    const inArtifact = output.finalArtifact.files.length > 0 && holds(output.finalArtifact.text);
    const where = [
      ...(turns.length === 0 ? [] : [`turn${turns.length === 1 ? '' : 's'} ${turns.join(', ')}`]),
      ...(inArtifact ? ['the shared folder'] : []),
    ];
    return {
      index,
      status: where.length > 0 ? 'achieved' : 'not-achieved',
      turns,
      inArtifact,
      judgeCalls: [],
      explanation:
        where.length > 0 ? `all markers in ${where.join(' and ')}` : `markers not found together: ${wanted.join(', ')}`,
    };
  });
}
