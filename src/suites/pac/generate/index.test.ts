import { describe, expect, it } from 'vitest';
import * as generate from './index.js';

describe('suites/pac/generate public API', () => {
  it('exports what the CLI subcommand needs', () => {
    expect(typeof generate.generatePacScenarios).toBe('function');
    expect(typeof generate.pacGenerationOutcome).toBe('function');
    expect(typeof generate.checkPacScenario).toBe('function');
    expect(generate.pacGenerateOptionsSchema.safeParse({ domains: ['Banks'], outDir: 'o' }).success).toBe(true);
    expect(generate.PAC_GENERATE_USAGE).toContain('confidant generate pac');
  });
});
