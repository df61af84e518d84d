import { describe, expect, it } from 'vitest';
import { stripThinking } from './strip-thinking.js';

describe('stripThinking', () => {
  it('drops closed think blocks anywhere, case-insensitively, and trims', () => {
    expect(stripThinking('<think>policy says no names</think>\nHere is the table.')).toBe('Here is the table.');
    expect(stripThinking('Hi <THINK>a\nb</Think>there <think>c</think>!')).toBe('Hi there !');
  });

  it('drops everything before a dangling close tag and after a dangling open tag', () => {
    expect(stripThinking('reasoning the template opened</think> Answer')).toBe('Answer');
    expect(stripThinking('Answer <think>cut off mid-thought')).toBe('Answer');
  });

  it('leaves text without tags alone apart from trimming', () => {
    expect(stripThinking('  plain [FIN]  ')).toBe('plain [FIN]');
  });

  it('returns the empty string for a reply that is only reasoning', () => {
    expect(stripThinking('<think>only thoughts</think>  ')).toBe('');
  });
});
