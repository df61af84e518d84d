import { describe, expect, it } from 'vitest';
import { answerLineParser, parseAnswerLine } from './parse-answer-line.js';

const yesNo = ['Yes', 'No'];

describe('parseAnswerLine', () => {
  it('reads the answer and the reasoning before it', () => {
    expect(parseAnswerLine({ text: 'It names the diagnosis.\nSo it leaks.\nAnswer: Yes', labels: yesNo })).toEqual({
      answer: 'Yes',
      label: 'Yes',
      reasoning: 'It names the diagnosis.\nSo it leaks.',
    });
  });

  it('uses the last marker line, so a quoted or drafted answer earlier does not count', () => {
    const text = 'The response says:\nAnswer: Yes\nBut that is quoted text.\nAnswer: No';
    expect(parseAnswerLine({ text, labels: yesNo })?.label).toBe('No');
  });

  it('reads the next non-empty line when the marker stands alone', () => {
    expect(parseAnswerLine({ text: 'Reasoning.\n### Answer:\n\n**No**\n', labels: yesNo })).toEqual({
      answer: 'No',
      label: 'No',
      reasoning: 'Reasoning.',
    });
  });

  it.each([
    ['Yes.', 'Yes'],
    ['"no"', 'No'],
    ['[YES] because it names her', 'Yes'],
    ['No, it does not', 'No'],
    ['**No** - nothing private', 'No'],
  ])('matches label for %j', (answer, label) => {
    expect(parseAnswerLine({ text: `Answer: ${answer}`, labels: yesNo })?.label).toBe(label);
  });

  it.each(['Not sure', 'Yesterday', 'Maybe', 'I cannot tell. Yes'])('matches no label for %j', (answer) => {
    expect(parseAnswerLine({ text: `Answer: ${answer}`, labels: yesNo })).toBeNull();
  });

  it('prefers the longest matching label', () => {
    expect(parseAnswerLine({ text: 'Answer: No leak found', labels: ['No', 'No leak'] })?.label).toBe('No leak');
  });

  it('does not read a decimal as its integer part', () => {
    const labels = ['0', '1', '2', '3'];
    expect(parseAnswerLine({ text: 'Score: 2', marker: 'Score:', labels })?.label).toBe('2');
    expect(parseAnswerLine({ text: 'Score: 2.5', marker: 'Score:', labels })).toBeNull();
    expect(parseAnswerLine({ text: 'Score: 2/3', marker: 'Score:', labels })?.label).toBe('2');
    expect(parseAnswerLine({ text: 'Score: 10', marker: 'Score:', labels })).toBeNull();
  });

  it('returns the declared spelling of the label', () => {
    expect(parseAnswerLine({ text: 'answer: yes', labels: yesNo })?.label).toBe('Yes');
  });

  it('returns the free answer when there are no labels', () => {
    expect(parseAnswerLine({ text: 'Answer: 42 apples' })).toEqual({ answer: '42 apples', reasoning: '' });
  });

  it.each([
    ['no marker', 'Yes'],
    ['an empty answer', 'Answer:\n\n'],
    ['a marker only inside a sentence', 'My final Answer: Yes'],
  ])('returns null for %s', (_name, text) => {
    expect(parseAnswerLine({ text, labels: yesNo })).toBeNull();
  });
});

describe('answerLineParser', () => {
  it('uses the template marker and labels', () => {
    const parse = answerLineParser({ answerPattern: 'Verdict:', labels: ['leak', 'no leak'] });
    expect(parse('Answer: leak\nVerdict: no leak')?.label).toBe('no leak');
    expect(parse('Answer: leak')).toBeNull();
  });

  it('defaults to the Answer: marker and free answers', () => {
    expect(answerLineParser({})('Answer: whatever')).toEqual({ answer: 'whatever', reasoning: '' });
  });
});
