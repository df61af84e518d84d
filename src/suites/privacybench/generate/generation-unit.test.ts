import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { defineUnit } from './generation-unit.js';

describe('defineUnit', () => {
  it('erases the output type and re-validates outputs with the schema at the boundary', () => {
    const seen: string[] = [];
    const unit = defineUnit<{ name: string }>({
      key: 'k',
      step: 'seeds',
      schema: z.object({ name: z.string().trim().min(1) }),
      task: { count: 1 },
      validate: (output) => (output.name === 'bad' ? ['no'] : []),
      apply: (_draft, output) => {
        seen.push(output.name);
      },
    });
    const draft = draftFixture();
    expect(unit.validate({ name: 'bad' }, draft)).toEqual(['no']);
    unit.apply(draft, { name: ' ok ' });
    expect(seen).toEqual(['ok']);
    expect(() => unit.apply(draft, { name: 3 })).toThrow();
    expect(unit.task).toEqual({ count: 1 });
  });
});
