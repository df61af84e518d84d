import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from './datagen-schemas.js';

const outputSchemas = Object.entries(schemas).filter(
  ([name, value]) => name.endsWith('OutputSchema') && value instanceof z.ZodType,
) as Array<[string, z.ZodType]>;

function objectsOf(node: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (typeof node !== 'object' || node === null) return found;
  const record = node as Record<string, unknown>;
  if (record.type === 'object') found.push(record);
  for (const value of Object.values(record)) objectsOf(value, found);
  return found;
}

describe('datagen output schemas', () => {
  it('convert to JSON Schema with every property required and no extra keys (strict structured output)', () => {
    expect(outputSchemas.map(([name]) => name).sort()).toEqual([
      'aiChatsOutputSchema',
      'blogsOutputSchema',
      'chatsOutputSchema',
      'expansionOutputSchema',
      'groupsOutputSchema',
      'profileOutputSchema',
      'purchasesOutputSchema',
      'secretsOutputSchema',
      'seedPeopleOutputSchema',
      'seedRelationshipsOutputSchema',
      'sharingOutputSchema',
      'timelineOutputSchema',
    ]);
    for (const [, schema] of outputSchemas) {
      for (const object of objectsOf(z.toJSONSchema(schema))) {
        expect(object.additionalProperties).toBe(false);
        expect(object.required).toEqual(Object.keys(object.properties as object));
      }
    }
  });

  it('parse leniently (extra keys dropped, text trimmed) and reject empty text and bad dates', () => {
    const parsed = schemas.seedPeopleOutputSchema.parse({
      people: [{ name: ' Ada ', persona: 'x', mood: 'happy' }],
      extra: 1,
    });
    expect(parsed).toEqual({ people: [{ name: 'Ada', persona: 'x' }] });
    expect(schemas.seedPeopleOutputSchema.safeParse({ people: [{ name: '  ', persona: 'x' }] }).success).toBe(false);
    const window = { edge: 0, permanence: 'temporary', startDate: '2024-02-30', endDate: null };
    expect(schemas.timelineOutputSchema.safeParse({ windows: [window], transitions: [] }).success).toBe(false);
  });
});
