import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../../test/support/test-data.js';
import { DatasetFormatError } from '../../spec/errors.js';
import { loadCases, PRIVACT_SPLIT_PATH, type PrivacyLensCase, parseCases, privactSplit } from './load-cases.js';

const privacylens = upstreamDataset('privacylens');
/** PrivAct's split as a name list beside the data: derived, so `data pull` does not install it. */
const withSplitFile = upstreamDataset('privacylens', { files: ['privact_split.json'] });
const datasetDir = privacylens.dir;

function tally(values: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const scratch = mkdtempSync(join(tmpdir(), 'privacylens-cases-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A minimal valid case of our own (not upstream data). */
const ownCase = (name: string): Record<string, unknown> => ({
  name,
  seed: {
    data_type: 'exam results',
    data_subject: 'a classmate',
    data_sender: 'a student',
    data_sender_name: 'Jane',
    data_recipient: 'a teacher',
    transmission_principle: 'reply to an email',
    source: 'crowdsourcing',
    source_details: {},
  },
  vignette: {
    story: 'Jane keeps notes.',
    data_type_concrete: 'grades',
    data_subject_concrete: 'Sam',
    data_sender_concrete: 'Jane',
    data_recipient_concrete: 'Ms Lee',
  },
  trajectory: {
    user_name: 'Jane Doe',
    user_email: 'jane.doe@gmail.com',
    user_instruction: 'Reply to Ms Lee.',
    toolkits: ['Gmail'],
    executable_trajectory: 'Action: GmailReadEmail\nAction Input: {"email_id": "1"}\nObservation: {}',
    final_action: 'GmailSendEmail',
    sensitive_info_items: ['Sam failed the exam.'],
  },
});

describe('loadCases on the upstream data', privacylens.testOptions, () => {
  it('reads the 493 main cases with the counts of §A2', async () => {
    const cases = await loadCases({ datasetDir, subset: 'main', split: 'all' });
    expect(cases).toHaveLength(493);
    expect(cases[0]?.name).toBe('main1');
    expect(new Set(cases.map((c) => c.name)).size).toBe(493);
    expect(tally(cases.map((c) => c.seed.source))).toEqual({ crowdsourcing: 337, literature: 87, regulation: 69 });
    expect(tally(cases.map((c) => c.trajectory.final_action))).toEqual({
      MessengerSendMessage: 243,
      GmailSendEmail: 174,
      SlackSendMessage: 43,
      FacebookManagerCreatePost: 33,
    });
    expect(tally(cases.flatMap((c) => c.trajectory.toolkits))).toEqual({
      NotionManager: 335,
      Messenger: 265,
      Gmail: 181,
      Slack: 46,
      FacebookManager: 39,
      GoogleCalendar: 23,
      ZoomManager: 6,
      GoogleFormFiller: 1,
    });
    expect(cases.filter((c) => c.trajectory.toolkits.includes('GoogleFormFiller')).map((c) => c.name)).toEqual([
      'main357',
    ]);
    expect(cases.reduce((sum, c) => sum + c.trajectory.sensitive_info_items.length, 0)).toBe(1487);
    expect(tally(cases.map((c) => c.trajectory.user_name))).toEqual({ 'Jane Doe': 267, 'John Doe': 226 });
    const itemCounts = tally(cases.map((c) => String(c.trajectory.sensitive_info_items.length)));
    expect([itemCounts['1'], itemCounts['2'], itemCounts['3'], itemCounts['4'], itemCounts['8']]).toEqual([
      131, 125, 97, 46, 8,
    ]);
    expect(tally(cases.map((c) => Object.keys(c.seed.source_details ?? {}).join('+')))).toEqual({
      '': 337,
      'hint+paper': 87,
      'hint+regulation': 69,
    });
  });

  it('splits the main set 394/99, disjoint, in file order', async () => {
    const all = await loadCases({ datasetDir, subset: 'main', split: 'all' });
    const train = await loadCases({ datasetDir, subset: 'main', split: 'train' });
    const test = await loadCases({ datasetDir, subset: 'main', split: 'test' });
    expect(train).toHaveLength(394);
    expect(test).toHaveLength(99);
    const trainNames = new Set(train.map((c) => c.name));
    expect(test.some((c) => trainNames.has(c.name))).toBe(false);
    expect(new Set([...trainNames, ...test.map((c) => c.name)]).size).toBe(493);
    const order = all.map((c) => c.name);
    expect(train.map((c) => c.name)).toEqual(order.filter((name) => trainNames.has(name)));
  });

  it('ships split name lists identical to the shared privact_split.json', withSplitFile.testOptions, () => {
    const shared = JSON.parse(readFileSync(join(datasetDir, 'privact_split.json'), 'utf8'));
    const ours = JSON.parse(readFileSync(PRIVACT_SPLIT_PATH, 'utf8'));
    expect(ours.train).toEqual(shared.train);
    expect(ours.test).toEqual(shared.test);
    expect(Object.keys(ours).sort()).toEqual(['description', 'test', 'train']);
    expect(privactSplit.train).toHaveLength(394);
    expect(privactSplit.test).toHaveLength(99);
  });

  it('reads the ConfAIde and CultureBank subsets (the latter has Python NaN)', async () => {
    const confide = await loadCases({ datasetDir, subset: 'confide', split: 'all' });
    expect(confide).toHaveLength(32);
    expect(confide.every((c) => c.seed.source === 'ConfAIde' && c.name.startsWith('confide_tier2_case'))).toBe(true);
    expect(tally(confide.map((c) => c.trajectory.final_action))).toEqual({
      GmailSendEmail: 26,
      MessengerSendMessage: 6,
    });
    expect(confide.reduce((sum, c) => sum + c.trajectory.sensitive_info_items.length, 0)).toBe(73);

    const culture = await loadCases({ datasetDir, subset: 'culturebank', split: 'all' });
    expect(culture).toHaveLength(24);
    expect(culture.every((c) => c.seed.source === 'CultureBank' && c.culturebank_fields !== undefined)).toBe(true);
    expect(culture[0]?.trajectory.user_name).toBe('John Doe (Cultural Group: American)');
    expect(culture[0]?.culturebank_fields?.goal).toBeNull();
    expect(tally(culture.map((c) => c.trajectory.final_action))).toEqual({
      MessengerSendMessage: 13,
      GmailSendEmail: 8,
      FacebookManagerCreatePost: 2,
      SlackSendMessage: 1,
    });
    expect(culture.reduce((sum, c) => sum + c.trajectory.sensitive_info_items.length, 0)).toBe(44);
  });
});

describe('parseCases errors', () => {
  const expectFormatError = (run: () => unknown, message: RegExp) => {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatasetFormatError);
    expect((caught as Error).message).toMatch(message);
  };

  it('accepts a valid case of our own', () => {
    const [parsed] = parseCases({ json: [ownCase('x1')], file: 'f.json' });
    expect((parsed as PrivacyLensCase).trajectory.final_action).toBe('GmailSendEmail');
  });

  it('names the file, the case index and name, and the field', () => {
    const bad = ownCase('x2');
    (bad.trajectory as Record<string, unknown>).final_action = 'GmailDeleteEmail';
    expectFormatError(
      () => parseCases({ json: [ownCase('x1'), bad], file: 'main_data.json' }),
      /^main_data\.json: case 1 \('x2'\), field 'trajectory\.final_action': /,
    );
    const noItems = ownCase('x3');
    (noItems.trajectory as Record<string, unknown>).sensitive_info_items = [];
    expectFormatError(
      () => parseCases({ json: [noItems], file: 'f.json' }),
      /case 0 \('x3'\), field 'trajectory\.sensitive_info_items'/,
    );
    expectFormatError(() => parseCases({ json: [42], file: 'f.json' }), /^f\.json: case 0, field '\(case\)'/);
    expectFormatError(() => parseCases({ json: [{ ...ownCase('x4'), extra: 1 }], file: 'f.json' }), /case 0 \('x4'\)/);
  });

  it('rejects a non-array file and duplicate names', () => {
    expectFormatError(() => parseCases({ json: { cases: [] }, file: 'f.json' }), /^f\.json: expected a JSON array/);
    expectFormatError(
      () => parseCases({ json: [ownCase('dup'), ownCase('dup')], file: 'f.json' }),
      /case 1 repeats the name 'dup'/,
    );
  });

  it('loadCases: a file that is not JSON is a DatasetFormatError naming it', async () => {
    const dir = join(scratch, 'broken');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main_data.json'), '[{"name": ');
    await expect(loadCases({ datasetDir: dir, subset: 'main', split: 'all' })).rejects.toThrow(
      /^main_data\.json: not valid JSON/,
    );
  });

  it('loadCases: a split naming cases the file lacks is a DatasetFormatError', async () => {
    const dir = join(scratch, 'small');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main_data.json'), JSON.stringify([ownCase('main1')]));
    await expect(loadCases({ datasetDir: dir, subset: 'main', split: 'test' })).rejects.toThrow(
      /the test split names 99 case\(s\) the file lacks/,
    );
    expect(await loadCases({ datasetDir: dir, subset: 'main', split: 'all' })).toHaveLength(1);
  });
});
