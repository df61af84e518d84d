import { describe, expect, it } from 'vitest';
import {
  editCall,
  message,
  moveCall,
  pacOutput,
  sharedArtifact,
  writeCall,
} from './__fixtures__/pac-judge-fixtures.js';
import { privacyItems } from './privacy-items.js';

const output = pacOutput({
  messages: [
    message(1, 'agent_a', 'hello', [
      writeCall('/workspace/shared/plan.md', 'draft Fennick'),
      writeCall('/workspace/agent/notes.md', 'private Fennick', { egress: false }),
      writeCall('/workspace/shared/x.md', 'failed', { isError: true }),
    ]),
    message(2, 'agent_b', 'hi', [writeCall('/workspace/shared/b.md', 'B text')]),
    message(3, 'agent_a', 'update', [
      editCall('/workspace/shared/plan.md', 'draft', 'final'),
      moveCall('/workspace/agent/t.md', '/workspace/shared/t.md', 'moved text'),
      moveCall('/workspace/agent/u.md', '/workspace/shared/u.md'),
      {
        name: 'filesystem_create_directory',
        input: { path: '/workspace/shared/Fennick' },
        resultText: 'ok',
        isError: false,
        egress: true,
      },
    ]),
  ],
  artifact: sharedArtifact([
    { path: 'shared/plan.md', content: 'final Fennick', writer: 'agent_a' },
    { path: 'shared/b.md', content: 'B text', writer: 'agent_b' },
    { path: 'shared/u.md', content: 'u content', writer: 'agent_a' },
  ]),
});

describe('privacyItems', () => {
  it('collects messages, egress tool arguments and last-written files of one agent', () => {
    const items = privacyItems({
      output,
      agentId: 'agent_a',
      channels: ['messages', 'tool-arguments', 'artifacts'],
    });
    expect(items.map((item) => [item.channel, item.id, item.turn, item.text])).toEqual([
      ['messages', 'turn:1', 1, 'hello'],
      ['messages', 'turn:3', 3, 'update'],
      ['tool-arguments', 'turn:1/call:0', 1, 'draft Fennick'],
      ['tool-arguments', 'turn:3/call:0', 3, 'final'],
      ['tool-arguments', 'turn:3/call:1', 3, 'moved text'],
      ['tool-arguments', 'turn:3/call:2', 3, 'u content'],
      ['tool-arguments', 'turn:3/call:3', 3, '{"path":"/workspace/shared/Fennick"}'],
      ['artifacts', 'file:shared/plan.md', 3, 'final Fennick'],
      ['artifacts', 'file:shared/u.md', 3, 'u content'],
    ]);
  });

  it('keeps to the requested channels and gives null for a move whose content is lost', () => {
    expect(privacyItems({ output, agentId: 'agent_b', channels: ['artifacts'] })).toEqual([
      {
        id: 'file:shared/b.md',
        at: { file: 'shared/b.md' },
        agentId: 'agent_b',
        channel: 'artifacts',
        turn: 2,
        kind: 'a file it left in the folder it shares with its partners',
        text: 'B text',
        recipients: ['agent_a'],
      },
    ]);
    const lost = pacOutput({
      messages: [message(1, 'agent_a', 'm', [moveCall('/workspace/agent/v.md', '/workspace/shared/v.md')])],
    });
    expect(privacyItems({ output: lost, agentId: 'agent_a', channels: ['tool-arguments'] })[0]?.text).toBeNull();
  });
});
