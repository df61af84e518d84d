import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeObjectSchema } from './describe-object-schema.js';

describe('describeObjectSchema', () => {
  it('reads type, values, default and description of every key, looking through wrappers', () => {
    const schema = z
      .object({
        mode: z.enum(['a', 'b']).default('a').describe('which mode'),
        count: z.int().positive().optional().describe('how many'),
        level: z.int().min(1).max(20).default(1),
        judges: z
          .preprocess((value) => value, z.string())
          .default('x,y')
          .transform((text) => text.split(','))
          .describe('a comma list'),
        channels: z
          .array(z.enum(['m', 'n']))
          .default(['m'])
          .describe('channels'),
        flag: z.boolean().default(false).describe('a switch'),
        tier: z.preprocess((value) => value, z.enum(['1', '2'])).describe('required tier'),
      })
      .strict()
      .superRefine(() => {});
    expect(describeObjectSchema(schema)).toEqual([
      { key: 'mode', type: 'string', values: ['a', 'b'], default: 'a', required: false, description: 'which mode' },
      { key: 'count', type: 'positive integer', required: false, description: 'how many' },
      { key: 'level', type: 'integer 1–20', default: '1', required: false },
      { key: 'judges', type: 'string', default: 'x,y', required: false, description: 'a comma list' },
      {
        key: 'channels',
        type: 'list of string (comma-separated)',
        values: ['m', 'n'],
        default: 'm',
        required: false,
        description: 'channels',
      },
      {
        key: 'flag',
        type: 'boolean',
        values: ['true', 'false'],
        default: 'false',
        required: false,
        description: 'a switch',
      },
      { key: 'tier', type: 'string', values: ['1', '2'], required: true, description: 'required tier' },
    ]);
  });

  it('gives nothing for a schema that is not an object', () => {
    expect(describeObjectSchema(z.string())).toEqual([]);
  });
});
