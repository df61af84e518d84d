import { describe, expect, it } from 'vitest';
import { type PacJsonCheck, pacJsonCheckSchema } from '../outcome-check-schema.js';
import type { ArtifactFile } from './artifact-files.js';
import { runJsonCheck } from './json-check.js';

const check = (fields: Record<string, unknown>): PacJsonCheck =>
  pacJsonCheckSchema.parse({ id: 'offer', kind: 'json', file: 'offer.json', ...fields });
const file = (content: string | null, path = 'shared/offer.json'): ArtifactFile => ({
  path,
  lastWriter: 'agent_a',
  content,
});
const run = (declared: PacJsonCheck, files: ArtifactFile[]) => runJsonCheck({ check: declared, files, messages: [] });

const SCHEMA = {
  type: 'object',
  required: ['supplier', 'price'],
  properties: { supplier: { type: 'string' }, price: { type: 'number', minimum: 0 } },
};

describe('runJsonCheck', () => {
  it('passes a deliverable that is valid JSON, matches the schema and holds the required values', () => {
    const declared = check({
      schema: SCHEMA,
      required: ['lines.0.sku'],
      equals: { supplier: 'Harrow Metals', 'lines.0.qty': 4 },
    });
    const text = JSON.stringify({ supplier: 'Harrow Metals', price: 18250, lines: [{ sku: 'LC-40', qty: 4 }] });
    expect(run(declared, [file(text)])).toEqual({
      id: 'offer',
      kind: 'json',
      verdict: 'pass',
      explanation: 'shared/offer.json is valid JSON and meets every condition',
    });
  });

  it('fails with every mismatch listed by path', () => {
    const declared = check({
      schema: SCHEMA,
      required: ['lines.0.sku'],
      equals: { supplier: 'Harrow Metals', currency: 'EUR' },
    });
    const result = run(declared, [file(JSON.stringify({ supplier: 'Kestrel', price: -5, lines: [] }))]);
    expect(result.verdict).toBe('fail');
    expect(result.explanation).toBe(
      'shared/offer.json: price: Too small: expected number to be >=0; lines.0.sku: missing (no lines.0); ' +
        'supplier: "Kestrel", expected "Harrow Metals"; currency: missing, expected "EUR"',
    );
  });

  it('fails a file that is not JSON, and a missing file (naming what the folder holds)', () => {
    expect(run(check({}), [file('price: 12')]).explanation).toMatch(/^shared\/offer\.json is not valid JSON \(/);
    expect(run(check({}), [file('price: 12')]).verdict).toBe('fail');
    expect(run(check({}), [file('{}', 'shared/notes.md')])).toEqual({
      id: 'offer',
      kind: 'json',
      verdict: 'fail',
      explanation: 'shared/offer.json is not in the final shared folder (it holds shared/notes.md)',
    });
    expect(run(check({ description: 'the offer file' }), [])).toMatchObject({
      verdict: 'fail',
      explanation: 'the offer file: shared/offer.json is not in the final shared folder (the folder is empty)',
    });
  });

  it('is not applicable for a missing file under ifMissing, and an error when the content is lost', () => {
    expect(run(check({ ifMissing: 'not-applicable' }), [])).toMatchObject({ verdict: 'not-applicable' });
    expect(run(check({ file: 'shared/offer.json' }), [file(null)])).toMatchObject({
      verdict: 'error',
      explanation: 'the content of shared/offer.json could not be recovered from the recorded output',
    });
  });
});
