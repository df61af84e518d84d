import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { upstreamDataset } from '../../../test/support/test-data.js';
import { loadCases } from './load-cases.js';
import { findToolkit, loadToolkits, TOOLKITS } from './toolkits.js';

const privacylens = upstreamDataset('privacylens');
const datasetDir = privacylens.dir;

describe('toolkit specs (§A3)', () => {
  const toolkits = Object.values(TOOLKITS);
  const tools = toolkits.flatMap((toolkit) => toolkit.tools);

  it('has 7 toolkits and 30 tools, each tool named after its toolkit', () => {
    expect(Object.keys(TOOLKITS)).toEqual([
      'GoogleCalendar',
      'Gmail',
      'Slack',
      'FacebookManager',
      'NotionManager',
      'Messenger',
      'ZoomManager',
    ]);
    expect(tools).toHaveLength(30);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(30);
    for (const toolkit of toolkits) {
      expect(toolkit.name).toBe(Object.keys(TOOLKITS).find((key) => TOOLKITS[key] === toolkit));
      for (const tool of toolkit.tools) expect(tool.name.startsWith(toolkit.name)).toBe(true);
    }
    expect(tools.every((tool) => tool.summary !== '' && tool.returns.length > 0)).toBe(true);
  });

  it('transcribes the parameter facts of the table', () => {
    const params = (name: string) =>
      tools
        .find((tool) => tool.name === name)
        ?.parameters.map((p) => `${p.name}${p.required ? '*' : ''}:${p.type}`)
        .join(', ');
    expect(params('GmailSendEmail')).toBe(
      'to*:string, subject*:string, body*:string, cc:string, bcc:string, send_at:string, attachments:array',
    );
    expect(params('GmailSearchEmails')).toBe(
      'keywords:array, folders:array, limit:integer, date_range:object, from:string, to:string, labels:array',
    );
    expect(params('SlackSearchChannelOrUser')).toBe('query*:string, search_type*:string, max_results:integer');
    expect(params('FacebookManagerGetUserProfile')).toBe('');
    expect(params('FacebookManagerCreatePost')).toBe('content*:string, media_path:string, privacy_setting:string');
    expect(params('NotionManagerSharePage')).toBe('page_id*:string, recipients*:array');
    expect(params('MessengerReceiveMessage')).toBe('max_count:integer');
    expect(params('ZoomManagerSearchMeetings')).toBe('criteria*:object');
    const gmailRead = tools.find((tool) => tool.name === 'GmailReadEmail');
    expect(gmailRead?.returns.map((r) => `${r.name}:${r.type}`).join(', ')).toBe(
      'from:string, to:string, cc:string, bcc:string, subject:string, body:string, timestamp:string, folder:string, labels:array, attachments:array',
    );
    const exceptions = (name: string) =>
      tools
        .find((tool) => tool.name === name)
        ?.exceptions.map((e) => e.name)
        .join(', ');
    expect(exceptions('SlackSendMessage')).toBe('InvalidRequestException, NotFoundException');
    expect(exceptions('FacebookManagerSearchPosts')).toBe('NotFoundException, InvalidRequestException');
    expect(exceptions('FacebookManagerGetUserProfile')).toBe('');
  });

  it(
    'covers every tool name used in the 493 trajectories; GoogleFormFiller has no spec',
    privacylens.testOptions,
    async () => {
      const cases = await loadCases({ datasetDir, subset: 'main', split: 'all' });
      const names = new Set(tools.map((tool) => tool.name));
      const used = new Set(
        cases.flatMap((c) =>
          [...c.trajectory.executable_trajectory.matchAll(/^Action: ([A-Za-z0-9_]+)/gm)].map((m) => m[1] ?? ''),
        ),
      );
      expect(used.size).toBeGreaterThan(10);
      expect([...used].filter((name) => !names.has(name))).toEqual([]);
      expect(findToolkit('GoogleFormFiller')).toBeUndefined();
      expect(findToolkit('toString')).toBeUndefined();
      expect(findToolkit('Gmail')?.tools).toHaveLength(4);
    },
  );
});

describe('loadToolkits', () => {
  it('validates toolkits.json when loading it: a tool outside its toolkit or a bad type is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-toolkits-'));
    try {
      const file = JSON.parse(readFileSync(new URL('./toolkits.json', import.meta.url), 'utf8')) as {
        toolkits: Array<{ tools: Array<{ name: string; parameters: Array<{ type: string }> }> }>;
      };
      const renamed = structuredClone(file);
      renamed.toolkits[0]!.tools[0]!.name = 'SlackSendMessage';
      writeFileSync(join(dir, 'renamed.json'), JSON.stringify(renamed));
      expect(() => loadToolkits(pathToFileURL(join(dir, 'renamed.json')))).toThrow(/starts with its toolkit's name/);
      const badType = structuredClone(file);
      badType.toolkits[0]!.tools[0]!.parameters[0]!.type = 'list';
      writeFileSync(join(dir, 'bad-type.json'), JSON.stringify(badType));
      expect(() => loadToolkits(pathToFileURL(join(dir, 'bad-type.json')))).toThrow(ZodError);
      writeFileSync(join(dir, 'same.json'), JSON.stringify(file));
      expect(loadToolkits(pathToFileURL(join(dir, 'same.json')))).toEqual(TOOLKITS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
