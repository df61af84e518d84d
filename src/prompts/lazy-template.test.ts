import { describe, expect, it } from 'vitest';
import { lazyTemplate } from './lazy-template.js';
import { PromptTemplateError } from './prompt-template-error.js';

describe('lazyTemplate', () => {
  it('loads on first use, once, and then behaves as the loaded object', () => {
    let calls = 0;
    const template = lazyTemplate(() => {
      calls += 1;
      return Object.freeze({ id: 'x', version: 2, render: (name: string) => `hi ${name}` });
    });
    expect(calls).toBe(0);
    expect(template.id).toBe('x');
    expect(template.render('you')).toBe('hi you');
    expect(Object.keys(template)).toEqual(['id', 'version', 'render']);
    expect('version' in template).toBe(true);
    expect('labels' in template).toBe(false);
    expect(Object.isFrozen(template)).toBe(true);
    expect(JSON.stringify(template)).toBe('{"id":"x","version":2}');
    expect({ ...template }).toEqual({ id: 'x', version: 2, render: template.render });
    expect(calls).toBe(1);
  });

  it('throws the loader error on first use, not when created', () => {
    const template = lazyTemplate((): { id: string } => {
      throw new PromptTemplateError('broken.v1.md: bad front matter');
    });
    expect(() => template.id).toThrow(PromptTemplateError);
    expect(() => template.id).toThrow('broken.v1.md: bad front matter');
  });
});
