import type { Suite } from '../suite.js';
import { definePacSuite } from './define-pac-suite.js';
import { pacJudgeTemplates } from './judges/pac-judge-infos.js';
import { scorePacEpisode } from './judges/score-pac-episode.js';

/**
 * The registered `pac` suite: PAC-Bench (pacbench.md) with the PAC judges of `judges/`.
 * `confidant run pac --split starter --model <spec>` runs our starter scenarios; the paper data
 * is local-only and read from `<dataDir>/pacbench/scenarios/`.
 */
export const pacSuite: Suite = definePacSuite({ score: scorePacEpisode, templates: pacJudgeTemplates });
