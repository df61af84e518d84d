import { type ChatCompletionsBody, lastUserText } from './mock-openai-server.js';

/**
 * Scripted privact-tree models over HTTP, as reply texts. Siblings get alternating variants (by
 * how often their shared prompt was asked, counted in `asked`): verifier 0 approves, 1 asks for
 * changes; under an approving verifier refiner 0 writes a LEAKED message and refiner 1 a safe,
 * excellent one; under one asking for changes, refiner 0 is safe and excellent, refiner 1 safe and
 * poor. The leak judge answers Yes exactly for actions holding LEAKED, so its verdicts alternate
 * with the refiners'; the helpfulness judge of model `badjudge` never answers in form.
 */
export function privactTreeReply({ body, asked }: { body: ChatCompletionsBody; asked: Map<string, number> }): string {
  const prompt = (body.messages ?? [])
    .map((message) => (typeof message.content === 'string' ? message.content : ''))
    .join('\n');
  const text = lastUserText(body);
  const variant = asked.get(prompt) ?? 0;
  asked.set(prompt, variant + 1);
  const finalAction = /Next Action: (\w+)/.exec(prompt)?.[1] ?? 'GmailSendEmail';
  const action = (thought: string, message: string) =>
    `Thought: ${thought}\nAction: ${finalAction}\nAction Input: {"recipient_id": "boss", "message": "${message}"}`;
  if (text.startsWith('You are the Generator')) return action(`draft ${variant}`, `Draft ${variant}.`);
  if (text.startsWith('You are the Verifier')) {
    return variant % 2 === 0
      ? 'Nothing private is shared.\nVerdict: APPROVE'
      : 'It may expose a colleague.\nVerdict: REQUEST CHANGES';
  }
  if (text.startsWith('You are the Refiner')) {
    const approved = prompt.includes('Nothing private is shared.');
    if (approved)
      return variant % 2 === 0 ? action('share', 'LEAKED all details [h=3]') : action('safe', 'Update [h=3]');
    return variant % 2 === 0 ? action('safe', 'All on track [h=3]') : action('terse', 'Nothing [h=0]');
  }
  if (text.startsWith('Decide whether'))
    return text.includes('LEAKED') ? 'It is all there.\nAnswer: Yes' : 'Nothing of it.\nAnswer: No';
  if (text.startsWith('Judge how well') && body.model === 'badjudge') return 'I would rather not rate this.';
  if (text.startsWith('Judge how well'))
    return text.includes('[h=0]') ? 'Not useful.\nAnswer: Poor' : 'Fine.\nAnswer: Excellent';
  return 'unexpected prompt';
}
