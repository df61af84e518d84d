import { describe, expect, it } from 'vitest';
import { ZodObject, z } from 'zod';
import { lazySchema } from './lazy-schema.js';

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return z.object({ name: z.string() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('behaves as the built schema: shape, extend, instanceof, the same errors', () => {
    const eager = z.object({ name: z.string(), count: z.number().optional() });
    const lazy = lazySchema(() => z.object({ name: z.string(), count: z.number().optional() }));
    expect(lazy).toBeInstanceOf(ZodObject);
    expect(Object.keys(lazy.shape)).toEqual(['name', 'count']);
    expect(lazy.extend({ extra: z.boolean() }).parse({ name: 'a', extra: true })).toEqual({ name: 'a', extra: true });
    expect(lazy.safeParse({ count: 'x' }).error?.issues).toEqual(eager.safeParse({ count: 'x' }).error?.issues);
  });

  it('works as a member of other schemas, a discriminated union among them', () => {
    const a = lazySchema(() => z.object({ type: z.literal('a'), value: z.string() }));
    const b = lazySchema(() => z.looseObject({ type: z.literal('b') }));
    const union = lazySchema(() => z.discriminatedUnion('type', [a, b]));
    const list = z.array(union);
    expect(
      list.parse([
        { type: 'a', value: 'x' },
        { type: 'b', more: 1 },
      ]),
    ).toEqual([
      { type: 'a', value: 'x' },
      { type: 'b', more: 1 },
    ]);
    expect(list.safeParse([{ type: 'c' }]).success).toBe(false);
    expect(z.object({ inner: a.optional() }).parse({})).toEqual({});
  });
});
