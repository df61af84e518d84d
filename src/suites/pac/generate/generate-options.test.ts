import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PAC_GENERATE_USAGE,
  pacDomainDirName,
  pacDomainDisplayName,
  pacGeneratedDataDir,
  pacGenerateOptionsSchema,
  pacGenerationUnits,
} from './generate-options.js';

describe('domain names', () => {
  it('turns GICS names into the paper folder names and back into readable names', () => {
    expect(pacDomainDirName('Oil, Gas and Consumable Fuels')).toBe('Oil_Gas_and_Consumable_Fuels');
    expect(pacDomainDirName(' Mortgage Real Estate Investment Trusts (REITs) ')).toBe(
      'Mortgage_Real_Estate_Investment_Trusts_(REITs)',
    );
    expect(pacDomainDirName('Air_Freight_and_Logistics')).toBe('Air_Freight_and_Logistics');
    expect(pacDomainDisplayName('Air_Freight_and_Logistics')).toBe('Air Freight and Logistics');
  });
});

describe('pacGenerateOptionsSchema', () => {
  it('fills the defaults', () => {
    expect(pacGenerateOptionsSchema.parse({ domains: ['Banks'], outDir: 'out' })).toEqual({
      domains: ['Banks'],
      count: 1,
      policyTypes: ['change', 'range'],
      outDir: 'out',
      seed: 0,
      agents: 2,
      requirementCount: 5,
      batchSize: 4,
      maxAttempts: 3,
      maxParseRetries: 2,
      concurrency: 4,
    });
  });

  it('reads policy types as a list, a comma list or both, in a fixed order', () => {
    const types = (policyTypes: unknown) =>
      pacGenerateOptionsSchema.parse({ domains: ['Banks'], outDir: 'o', policyTypes }).policyTypes;
    expect(types('range')).toEqual(['range']);
    expect(types('range,change')).toEqual(['change', 'range']);
    expect(types('both')).toEqual(['change', 'range']);
    expect(types(['range'])).toEqual(['range']);
    expect(pacGenerateOptionsSchema.safeParse({ domains: ['Banks'], outDir: 'o', policyTypes: 'mixed' }).success).toBe(
      false,
    );
  });

  it('coerces numeric strings and rejects out-of-range numbers', () => {
    expect(pacGenerateOptionsSchema.parse({ domains: ['Banks'], outDir: 'o', count: '3', seed: '-2' })).toMatchObject({
      count: 3,
      seed: -2,
    });
    expect(pacGenerateOptionsSchema.safeParse({ domains: ['Banks'], outDir: 'o', count: 0 }).success).toBe(false);
    expect(pacGenerateOptionsSchema.safeParse({ domains: ['Banks'], outDir: 'o', agents: 8 }).success).toBe(false);
    expect(pacGenerateOptionsSchema.safeParse({ domains: ['Banks'], outDir: 'o', maxParseRetries: 10 }).success).toBe(
      false,
    );
  });

  it('rejects unsafe and duplicate domains with the field path', () => {
    const unsafe = pacGenerateOptionsSchema.safeParse({ domains: ['../etc'], outDir: 'o' });
    expect(unsafe.success).toBe(false);
    expect(unsafe.error?.issues[0]?.path).toEqual(['domains', 0]);
    const duplicate = pacGenerateOptionsSchema.safeParse({ domains: ['Air Freight', 'Air_Freight'], outDir: 'o' });
    expect(duplicate.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['domains', 1], "'Air_Freight' and 'Air Freight' are the same domain folder (Air_Freight)"],
    ]);
  });
});

describe('pacGenerationUnits', () => {
  it('lists units by type, then domain as given, then k, with their ids and files', () => {
    const units = pacGenerationUnits({
      domains: ['Oil, Gas and Consumable Fuels', 'Banks'],
      count: 2,
      policyTypes: ['range'],
    });
    expect(units.map((unit) => unit.id)).toEqual([
      'range/Oil_Gas_and_Consumable_Fuels/policy_0',
      'range/Oil_Gas_and_Consumable_Fuels/policy_1',
      'range/Banks/policy_0',
      'range/Banks/policy_1',
    ]);
    expect(units[1]).toEqual({
      id: 'range/Oil_Gas_and_Consumable_Fuels/policy_1',
      policyType: 'range',
      domain: 'Oil_Gas_and_Consumable_Fuels',
      domainName: 'Oil, Gas and Consumable Fuels',
      policy: 1,
      file: 'range/Oil_Gas_and_Consumable_Fuels/policy_1.json',
    });
  });
});

describe('pacGeneratedDataDir', () => {
  it('gives the data dir only for <dataDir>/pacbench/scenarios', () => {
    expect(pacGeneratedDataDir(join('/x', 'data', 'pacbench', 'scenarios'))).toBe(join('/x', 'data'));
    expect(pacGeneratedDataDir(join('/x', 'data', 'pacbench', 'scenarios/'))).toBe(join('/x', 'data'));
    expect(pacGeneratedDataDir(join('/x', 'generated'))).toBeNull();
  });
});

describe('PAC_GENERATE_USAGE', () => {
  it('documents the command, its flags and the data-dir to load with', () => {
    expect(PAC_GENERATE_USAGE.startsWith('confidant generate pac --domain')).toBe(true);
    for (const flag of [
      '--count',
      '--model datagen=',
      '--out',
      '--max-attempts',
      '--policy-type',
      '--data-dir <dataDir>',
    ]) {
      expect(PAC_GENERATE_USAGE).toContain(flag);
    }
  });
});
