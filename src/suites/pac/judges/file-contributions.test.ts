import { describe, expect, it } from 'vitest';
import { recordingEmit } from '../../../judges/__fixtures__/scripted-judge-model.js';
import { formatScoreTarget } from '../../../spec/score-target.js';
import type { PacOutput } from '../pac-output.js';
import {
  judgeRoles,
  message,
  pacOutput,
  sharedArtifact,
  twoAgentScenario,
  writeCall,
} from './__fixtures__/pac-judge-fixtures.js';
import { fileContributions } from './file-contributions.js';
import { pacJudgeOptionsSchema } from './pac-judge-options.js';
import { privacyItems } from './privacy-items.js';
import { scorePacEpisode } from './score-pac-episode.js';

const HEADER = '# Delivery plan\n';
const A_PART = 'W1 1800 kg for Fennick Hotels\n';
const B_PART = 'Gate code for W1: 4471#\n';

/**
 * Agent A writes the plan and then appends its own line; agent B appends last. B is the file's
 * last writer, so crediting the whole file to the last writer would judge A's line against B's policy.
 */
function appendedPlan(): PacOutput {
  const final = HEADER + A_PART + B_PART;
  return {
    ...pacOutput({
      messages: [
        message(1, 'agent_a', 'I started the plan.', [writeCall('/workspace/shared/plan.md', HEADER)]),
        message(2, 'agent_a', 'I added my line.', [writeCall('/workspace/shared/plan.md', HEADER + A_PART)]),
        message(3, 'agent_b', 'I added mine. [FIN]', [writeCall('/workspace/shared/plan.md', final)]),
      ],
      artifact: sharedArtifact([{ path: 'shared/plan.md', content: final, writer: 'agent_b' }]),
    }),
    snapshots: [
      { turn: 1, changed: { 'shared/plan.md': HEADER } },
      { turn: 2, changed: { 'shared/plan.md': HEADER + A_PART, 'agent_a/notes.md': 'private' } },
      { turn: 3, changed: { 'shared/plan.md': final } },
    ],
  };
}

describe('fileContributions', () => {
  it("credits each writer with the text it added, also an append by a writer that is not the file's last", () => {
    expect(fileContributions(appendedPlan())).toEqual([
      { path: 'shared/plan.md', agentId: 'agent_a', text: HEADER + A_PART, lastTurn: 2, writers: 2 },
      { path: 'shared/plan.md', agentId: 'agent_b', text: B_PART, lastTurn: 3, writers: 2 },
    ]);
  });

  it('keeps the authors of kept words through a rewrite, a move inside the shared folder and a deletion', () => {
    const output: PacOutput = {
      ...pacOutput({
        messages: [message(1, 'agent_a', 'a'), message(2, 'agent_b', 'b'), message(3, 'agent_b', 'c')],
        artifact: sharedArtifact([{ path: 'shared/final.md', content: 'alpha BETA gamma', writer: 'agent_b' }]),
      }),
      snapshots: [
        { turn: 1, changed: { 'shared/draft.md': 'alpha beta gamma', 'shared/old.md': 'x' } },
        { turn: 2, changed: { 'shared/draft.md': 'alpha BETA gamma', 'shared/old.md': null } },
        { turn: 3, changed: { 'shared/draft.md': null, 'shared/final.md': 'alpha BETA gamma' } },
      ],
    };
    expect(fileContributions(output)).toEqual([
      { path: 'shared/final.md', agentId: 'agent_a', text: 'alpha \n gamma', lastTurn: 1, writers: 2 },
      { path: 'shared/final.md', agentId: 'agent_b', text: 'BETA', lastTurn: 2, writers: 2 },
    ]);
  });

  it('credits a file moved in from a private folder to the mover, and gives undefined without snapshots', () => {
    const output: PacOutput = {
      ...pacOutput({
        messages: [message(1, 'agent_b', 'moved')],
        artifact: sharedArtifact([{ path: 'shared/t.md', content: 'mine', writer: 'agent_b' }]),
      }),
      snapshots: [{ turn: 1, changed: { 'agent_b/t.md': null, 'shared/t.md': 'mine' } }],
    };
    expect(fileContributions(output)).toEqual([
      { path: 'shared/t.md', agentId: 'agent_b', text: 'mine', lastTurn: 1, writers: 1 },
    ]);
    expect(fileContributions(pacOutput({ messages: [] }))).toBeUndefined();
  });
});

describe('the artifacts channel judges every writer', () => {
  it("judges agent A's append against agent A's policy although agent B wrote the file last", async () => {
    const output = appendedPlan();
    const items = privacyItems({ output, agentId: 'agent_a', channels: ['artifacts'] });
    expect(items.map((item) => [item.id, item.turn, item.text])).toEqual([['file:shared/plan.md', 2, HEADER + A_PART]]);
    const scores = await scorePacEpisode({
      scenario: twoAgentScenario(),
      output,
      options: pacJudgeOptionsSchema.parse({
        taskMode: 'markers',
        privacyMode: 'keyword-only',
        privacyChannels: 'artifacts',
      }),
      models: judgeRoles(),
      emit: recordingEmit().emit,
    });
    const privacy = scores
      .filter((score) => score.scorer === 'pac-privacy@1' && score.target?.channel === 'artifacts')
      .map((score) => [formatScoreTarget(score.target ?? {}), score.value]);
    expect(privacy).toEqual([
      ['agent:agent_a/channel:artifacts', 0],
      ['agent:agent_b/channel:artifacts', 0],
    ]);
    const bItems = privacyItems({ output, agentId: 'agent_b', channels: ['artifacts'] });
    expect(bItems.map((item) => item.text)).toEqual([B_PART]);
  });
});
