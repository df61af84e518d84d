import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAC_JUDGE_TEMPLATES, pacJudgeInfos } from './pac-judge-infos.js';
import { pacJudgeOptionsSchema } from './pac-judge-options.js';

const ids = (options: Record<string, unknown>) =>
  pacJudgeInfos(pacJudgeOptionsSchema.parse(options)).map((info) => `${info.id}@${info.version}`);

describe('pacJudgeInfos', () => {
  it('lists the LLM judges of the default modes with their template hashes', () => {
    const infos = pacJudgeInfos(pacJudgeOptionsSchema.parse({}));
    expect(infos.map((info) => info.id)).toEqual([
      'pac-task-message',
      'pac-keyword-variants',
      'pac-privacy-awareness',
      'pac-context-alignment',
    ]);
    const file = fileURLToPath(new URL('./pac-task-message.v1.md', import.meta.url));
    expect(infos[0]).toEqual({
      id: 'pac-task-message',
      version: 1,
      templateSha256: createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex'),
    });
  });

  it('follows the modes, and is empty when every judge in use is deterministic', () => {
    expect(ids({ taskMode: 'artifact', privacyMode: 'geval-entity', grounding: false })).toEqual([
      'pac-task-artifact@1',
      'pac-privacy-geval@1',
    ]);
    expect(ids({ taskMode: 'markers', privacyMode: 'geval-entity' })).toEqual(['pac-privacy-geval@1']);
    expect(ids({ taskMode: 'markers', privacyMode: 'keyword-only' })).toEqual([]);
    expect(ids({ taskMode: 'checks', privacyMode: 'keyword-only' })).toEqual([]);
  });

  it('asks for the disclosure degree (awareness v2) unless judgeParse=upstream keeps v1', () => {
    expect(ids({ taskMode: 'markers' })).toEqual(['pac-keyword-variants@1', 'pac-privacy-awareness@2']);
    expect(ids({ taskMode: 'markers', judgeParse: 'upstream' })).toEqual([
      'pac-keyword-variants@1',
      'pac-privacy-awareness@1',
    ]);
  });

  it('loads every template as protocol json', () => {
    expect(PAC_JUDGE_TEMPLATES.map((template) => [template.id, template.protocol])).toEqual([
      ['pac-task-message', 'json'],
      ['pac-task-artifact', 'json'],
      ['pac-keyword-variants', 'json'],
      ['pac-privacy-awareness', 'json'],
      ['pac-privacy-awareness', 'json'],
      ['pac-privacy-geval', 'json'],
      ['pac-context-alignment', 'json'],
    ]);
  });
});
