import { describe, expect, it } from 'vitest';
import { visibleAnswer } from './visible-answer.js';

describe('visibleAnswer', () => {
  it('removes think blocks', () => {
    expect(visibleAnswer('<think>Answer: Yes</think>\nAnswer: No')).toBe('\nAnswer: No');
    expect(visibleAnswer('a<THINKING>x</THINKING>b<reasoning>y</reasoning>c')).toBe('abc');
  });

  it('drops everything before a dangling closing tag', () => {
    expect(visibleAnswer('draft {"score": 0}</think>{"score": 3}')).toBe('{"score": 3}');
  });

  it('leaves text without reasoning blocks unchanged', () => {
    expect(visibleAnswer('Answer: Yes')).toBe('Answer: Yes');
  });
});
