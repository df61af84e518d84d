import { describe, expect, it } from 'vitest';
import { PromptTemplateError } from '../prompts/index.js';
import { CHAIN_ROLE_TEMPLATES, CHAIN_SYSTEM_LINE_TEMPLATE } from './chain-stage-prompt.js';
import { parseRoleTemplate } from './role-template.js';

const text = [
  '---',
  'id: demo-role',
  'version: 2',
  'statement: You check {{upstream}}.',
  'privacy_statement: "You check {{upstream}} with care."',
  '---',
  '',
  'Read {{ upstream }} and answer.',
  '',
].join('\n');

describe('parseRoleTemplate', () => {
  it('reads the front matter and renders slots', () => {
    const template = parseRoleTemplate({ text, source: 'inline:demo' });
    expect(template.id).toBe('demo-role');
    expect(template.version).toBe(2);
    expect(template.statement).toBe('You check {{upstream}}.');
    expect(template.privacyStatement).toBe('You check {{upstream}} with care.');
    expect(template.body).toBe('Read {{ upstream }} and answer.');
    expect(template.render(template.body, { upstream: 'the {{x}} draft', extra: 'ignored' })).toBe(
      'Read the {{x}} draft and answer.',
    );
    expect(template.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects a missing slot value, unknown keys, bad ids and mismatched file names', () => {
    const template = parseRoleTemplate({ text, source: 'inline:demo' });
    expect(() => template.render(template.body, {})).toThrow(/no value for the prompt slot \{\{ upstream \}\}/);
    expect(() => parseRoleTemplate({ text: text.replace('version: 2', 'protocol: json'), source: 'x' })).toThrow(
      PromptTemplateError,
    );
    expect(() => parseRoleTemplate({ text: text.replace('demo-role', 'Demo Role'), source: 'x' })).toThrow(
      /'id': use lowercase letters/,
    );
    expect(() => parseRoleTemplate({ text, source: '/p/demo-role.v1.md' })).toThrow(/must be 'demo-role.v2.md'/);
    expect(() => parseRoleTemplate({ text: 'no front matter', source: 'x' })).toThrow(/must start with a '---'/);
  });

  it('loads every shipped chain template with a statement', () => {
    expect(CHAIN_SYSTEM_LINE_TEMPLATE.body).toContain('{{role_statement}}');
    for (const template of Object.values(CHAIN_ROLE_TEMPLATES)) {
      expect(template.statement, template.id).toBeTruthy();
      expect(template.version).toBe(1);
    }
    expect(CHAIN_ROLE_TEMPLATES.generator.body).toBe('');
  });
});
