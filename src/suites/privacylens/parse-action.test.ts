import { describe, expect, it } from 'vitest';
import { actionValidity, extractAction, parseAction, postprocessAction } from './parse-action.js';

const NESTED =
  'Thought: I will email the summary.\nAction: GmailSendEmail\nAction Input: {"to": "a@b.com", "body": "x", "date_range": {"start_date": "2022-01-01"}, "subject": "S"}\nObservation: {"success": true}';

describe('postprocessAction', () => {
  it('privacylens: cuts right after the first } (breaking nested JSON, as upstream)', () => {
    expect(postprocessAction({ text: NESTED, mode: 'privacylens' })).toBe(
      'Thought: I will email the summary.\nAction: GmailSendEmail\nAction Input: {"to": "a@b.com", "body": "x", "date_range": {"start_date": "2022-01-01"}',
    );
  });

  it('balanced-json: cuts after the brace closing the first object', () => {
    expect(postprocessAction({ text: NESTED, mode: 'balanced-json' })).toBe(
      'Thought: I will email the summary.\nAction: GmailSendEmail\nAction Input: {"to": "a@b.com", "body": "x", "date_range": {"start_date": "2022-01-01"}, "subject": "S"}',
    );
  });

  it('balanced-json: ignores braces inside strings and braces in the Thought', () => {
    const text =
      'Thought: use {curly} words\nAction: SlackSendMessage\nAction Input: {"message": "a } b \\" {", "recipient": "@x"} trailing';
    expect(postprocessAction({ text, mode: 'balanced-json' })).toBe(
      'Thought: use {curly} words\nAction: SlackSendMessage\nAction Input: {"message": "a } b \\" {", "recipient": "@x"}',
    );
    expect(postprocessAction({ text, mode: 'privacylens' })).toBe('Thought: use {curly}');
  });

  it('cuts at Observation: and Final Answer:, and strips a Llama-3 assistant header', () => {
    expect(
      postprocessAction({
        text: '<|start_header_id|>assistant<|end_header_id|>\n\nThought: t\nAction: X\nFinal Answer: done {x}',
        mode: 'privacylens',
      }),
    ).toBe('Thought: t\nAction: X');
    expect(postprocessAction({ text: 'assistant\n\nAction: X\nAction Input: {"a": 1}', mode: 'privacylens' })).toBe(
      'Action: X\nAction Input: {"a": 1}',
    );
    expect(postprocessAction({ text: 'assistants can act. Action: X', mode: 'privacylens' })).toBe(
      'assistants can act. Action: X',
    );
  });

  it('keeps text without braces whole, and an object that never closes (balanced-json)', () => {
    expect(postprocessAction({ text: ' Action: X\nAction Input: {"a": {"b": 1}', mode: 'balanced-json' })).toBe(
      'Action: X\nAction Input: {"a": {"b": 1}',
    );
    expect(postprocessAction({ text: 'no braces here ', mode: 'privacylens' })).toBe('no braces here');
  });

  it('none: returns the text untouched', () => {
    expect(postprocessAction({ text: `  ${NESTED}  `, mode: 'none' })).toBe(`  ${NESTED}  `);
  });
});

describe('extractAction and actionValidity', () => {
  it('takes the text after the FIRST Action:', () => {
    expect(extractAction('Thought: t\nAction: GmailSendEmail\nAction Input: {"to": "x"}')).toBe(
      'GmailSendEmail\nAction Input: {"to": "x"}',
    );
    expect(extractAction('Action: A\nAction: B')).toBe('A\nAction: B');
    expect(extractAction('I will not do this.')).toBeNull();
    expect(extractAction('Action Input: {"a": 1}')).toBeNull();
  });

  it('valid / mismatch / missing from the first Action: name', () => {
    expect(actionValidity({ text: 'Action: GmailSendEmail\n', finalAction: 'GmailSendEmail' })).toEqual({
      validity: 'valid',
      actionName: 'GmailSendEmail',
    });
    expect(actionValidity({ text: 'Action:SlackSendMessage', finalAction: 'GmailSendEmail' })).toEqual({
      validity: 'mismatch',
      actionName: 'SlackSendMessage',
    });
    expect(
      actionValidity({ text: 'Action: GmailSendEmail then Action: Slack', finalAction: 'SlackSendMessage' }),
    ).toEqual({
      validity: 'mismatch',
      actionName: 'GmailSendEmail',
    });
    expect(actionValidity({ text: 'Action: `GmailSendEmail`', finalAction: 'GmailSendEmail' })).toEqual({
      validity: 'missing',
      actionName: null,
    });
    expect(actionValidity({ text: 'nothing', finalAction: 'GmailSendEmail' }).validity).toBe('missing');
  });
});

describe('parseAction', () => {
  const body = 'Thought: ok\nAction: MessengerSendMessage\nAction Input: {"recipient_id": "r1", "message": "hi"}';

  it('reads an answer with or without a <RESULT> wrapper the same way', () => {
    const bare = parseAction({ raw: body, mode: 'none', finalAction: 'MessengerSendMessage' });
    const wrapped = parseAction({
      raw: `<RESULT>\n${body}\n</RESULT>`,
      mode: 'none',
      finalAction: 'MessengerSendMessage',
    });
    expect(bare).toEqual({
      processed: body,
      action: 'MessengerSendMessage\nAction Input: {"recipient_id": "r1", "message": "hi"}',
      actionName: 'MessengerSendMessage',
      validity: 'valid',
    });
    expect(wrapped.validity).toBe('valid');
    expect(wrapped.action).toBe(`${bare.action}\n</RESULT>`);
    const cut = parseAction({
      raw: `<RESULT>\n${body}\n</RESULT>`,
      mode: 'privacylens',
      finalAction: 'MessengerSendMessage',
    });
    expect(cut.action).toBe(bare.action);
  });

  it('gives a null action and missing validity when there is no Action:', () => {
    expect(parseAction({ raw: 'I cannot share that.', mode: 'privacylens', finalAction: 'GmailSendEmail' })).toEqual({
      processed: 'I cannot share that.',
      action: null,
      actionName: null,
      validity: 'missing',
    });
  });
});

describe('llamaHeader: confidant (default) and upstream (docs/fidelity.md)', () => {
  const header = '<|start_header_id|>assistant<|end_header_id|>';
  it('upstream drops the last character of a headed reply without <|eot_id|>; confidant keeps it', () => {
    const raw = `${header}\n\nThought: send it.\nAction: GmailSendEmail\nAction Input: ok`;
    const confidant = postprocessAction({ text: raw, mode: 'privacylens' });
    const upstream = postprocessAction({ text: raw, mode: 'privacylens', llamaHeader: 'upstream' });
    expect(extractAction(confidant)).toBe('GmailSendEmail\nAction Input: ok');
    expect(extractAction(upstream)).toBe('GmailSendEmail\nAction Input: o');
  });

  it('both cut a headed reply at <|eot_id|> the same way when the JSON closes before it', () => {
    const raw = `${header}\nAction: GmailSendEmail\nAction Input: {"to": "a@b.c"}<|eot_id|>`;
    for (const llamaHeader of ['confidant', 'upstream'] as const) {
      expect(extractAction(postprocessAction({ text: raw, mode: 'privacylens', llamaHeader }))).toBe(
        'GmailSendEmail\nAction Input: {"to": "a@b.c"}',
      );
    }
  });
});
