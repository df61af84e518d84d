import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { type PrivacyGuardReport, privacyGuard } from './privacy-guard-middleware.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;

const NORM = "Alice's diagnosis may be shared only with her doctor.";
const DRAFT = 'Sure! Alice has the flu and is off until Friday.';
const CRITIQUE = "The draft reveals Alice's diagnosis to a coworker.\nVerdict: REQUEST CHANGES";
const REFINED = 'Alice is off until Friday.';

const usage = (input: number, output: number): GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

const systemOf = (options: CallOptions) => {
  const first = options.prompt[0];
  return first?.role === 'system' ? first.content : '';
};
const promptText = (options: CallOptions) => JSON.stringify(options.prompt);

/** One mock playing the app model: drafts, critiques and refines depending on its system line. */
function appModel({
  critique = CRITIQUE,
  draft = [{ type: 'text', text: DRAFT }],
}: {
  critique?: string;
  draft?: GenerateResult['content'];
} = {}) {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const system = systemOf(options);
      const text = system.startsWith('You are the Verifier')
        ? critique
        : system.startsWith('You are the Refiner')
          ? REFINED
          : null;
      return {
        content: text === null ? draft : [{ type: 'text', text }],
        finishReason: {
          unified: text === null && draft.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop',
          raw: undefined,
        },
        usage: text === null ? usage(100, 20) : usage(300, 40),
        warnings: [],
        providerMetadata: text === null ? { app: { requestId: 'req-1' } } : undefined,
      };
    },
  });
}

const guardReport = (metadata: unknown): PrivacyGuardReport =>
  (metadata as { confidant: { privacyGuard: PrivacyGuardReport } }).confidant.privacyGuard;

describe('privacyGuard through wrapLanguageModel', () => {
  it("replaces the draft with the refiner's text, sums usage and records the verdict", async () => {
    const mock = appModel();
    const model = wrapLanguageModel({ model: mock, middleware: privacyGuard({ norms: [NORM] }) });
    const result = await generateText({
      model,
      system: 'You are an office assistant.',
      prompt: 'Why is Alice out this week?',
    });
    expect(result.text).toBe(REFINED);
    expect(result.usage.inputTokens).toBe(100 + 300 + 300);
    expect(result.usage.outputTokens).toBe(20 + 40 + 40);
    expect(mock.doGenerateCalls).toHaveLength(3);
    const [draftCall, verifierCall, refinerCall] = mock.doGenerateCalls;
    expect(systemOf(draftCall!)).toBe('You are an office assistant.');
    expect(systemOf(verifierCall!)).toBe(
      'You are the Verifier in a helpful AI multi-agent system made of three roles: Generator, Verifier and Refiner. ' +
        "Your task is to critique the Generator's response for privacy and for adherence to the user's instruction, " +
        'list the possible privacy issues, and give a short verdict.',
    );
    const verifierText = promptText(verifierCall!);
    expect(verifierText).toContain(NORM);
    expect(verifierText).toContain('Why is Alice out this week?');
    expect(verifierText).toContain('You are an office assistant.');
    expect(verifierText).toContain(DRAFT);
    const refinerText = promptText(refinerCall!);
    expect(refinerText).toContain(DRAFT);
    expect(refinerText).toContain("Verifier's Critique:");
    expect(refinerText).toContain(NORM);
    expect(verifierCall?.temperature).toBe(0);
    const report = guardReport(result.providerMetadata);
    expect(report).toEqual({
      chain: 'G>V>R',
      verdict: 'request-changes',
      toolCalls: 'none',
      stages: [
        { role: 'generator', label: 'Generator', characters: DRAFT.length },
        { role: 'verifier', label: 'Verifier', characters: CRITIQUE.length },
        { role: 'refiner', label: 'Refiner', characters: REFINED.length },
      ],
    });
    expect((result.providerMetadata as { app?: unknown }).app).toEqual({ requestId: 'req-1' });
  });

  it('uses separate verifier and refiner models when given, and records stage texts on request', async () => {
    const app = appModel();
    const verifier = appModel({ critique: 'Fine.\nVerdict: APPROVE' });
    const model = wrapLanguageModel({
      model: app,
      middleware: privacyGuard({ norms: NORM, models: { verifier }, recordStageText: true }),
    });
    const result = await generateText({ model, prompt: 'Why is Alice out?' });
    expect(app.doGenerateCalls.map(systemOf)).toEqual(['', expect.stringMatching(/^You are the Refiner/)]);
    expect(verifier.doGenerateCalls.map(systemOf)).toEqual([expect.stringMatching(/^You are the Verifier/)]);
    const report = guardReport(result.providerMetadata);
    expect(report.verdict).toBe('approve');
    expect(report.stages.map((stage) => stage.text)).toEqual([DRAFT, 'Fine.\nVerdict: APPROVE', REFINED]);
  });

  const toolDraft: GenerateResult['content'] = [
    { type: 'text', text: 'Emailing Bob.' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'sendEmail', input: '{"to":"bob","body":"Alice has the flu"}' },
  ];
  const callParams: CallOptions = {
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Tell Bob why Alice is out.' }] }],
  };

  it('withholds tool calls the verifier did not approve and shows it their arguments', async () => {
    const mock = appModel({ draft: toolDraft });
    const model = wrapLanguageModel({ model: mock, middleware: privacyGuard({ norms: [NORM] }) });
    const result = await model.doGenerate(callParams);
    expect(result.content).toEqual([{ type: 'text', text: REFINED }]);
    expect(result.finishReason.unified).toBe('stop');
    expect(promptText(mock.doGenerateCalls[1]!)).toContain('[tool call sendEmail with input {\\"to\\":\\"bob\\"');
    expect(guardReport(result.providerMetadata).toolCalls).toBe('withheld');
  });

  it('keeps tool calls when every verifier approves, and withholds them on an unclear verdict', async () => {
    const approving = wrapLanguageModel({
      model: appModel({ draft: toolDraft, critique: 'No issue.\nVerdict: APPROVE' }),
      middleware: privacyGuard({ norms: [NORM] }),
    });
    const kept = await approving.doGenerate(callParams);
    expect(kept.content).toEqual([{ type: 'text', text: REFINED }, toolDraft[1]]);
    expect(kept.finishReason.unified).toBe('tool-calls');
    expect(guardReport(kept.providerMetadata).toolCalls).toBe('kept');

    const unclear = wrapLanguageModel({
      model: appModel({ draft: toolDraft, critique: 'Looks mostly okay.' }),
      middleware: privacyGuard({ norms: [NORM] }),
    });
    const withheld = await unclear.doGenerate(callParams);
    expect(withheld.content).toEqual([{ type: 'text', text: REFINED }]);
    expect(guardReport(withheld.providerMetadata)).toMatchObject({ verdict: 'unclear', toolCalls: 'withheld' });
  });

  it('guards streaming: the refined text is streamed, never the draft', async () => {
    const mock = appModel();
    const model = wrapLanguageModel({ model: mock, middleware: privacyGuard({ norms: [NORM] }) });
    const result = streamText({ model, prompt: 'Why is Alice out?' });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    expect(streamed).toBe(REFINED);
    expect((await result.usage).inputTokens).toBe(700);
    expect(mock.doStreamCalls).toHaveLength(0);
    expect(guardReport(await result.providerMetadata).verdict).toBe('request-changes');
  });

  it('runs longer chains such as G>V>V>R with one call per stage', async () => {
    const mock = appModel();
    const model = wrapLanguageModel({ model: mock, middleware: privacyGuard({ norms: [NORM], chain: 'G>V>V>R' }) });
    const result = await model.doGenerate(callParams);
    expect(mock.doGenerateCalls.map((call) => systemOf(call).slice(0, 22))).toEqual([
      '',
      'You are Verifier 1 in ',
      'You are Verifier 2 in ',
      'You are the Refiner in',
    ]);
    expect(guardReport(result.providerMetadata).stages.map((stage) => stage.label)).toEqual([
      'Generator',
      'Verifier 1',
      'Verifier 2',
      'Refiner',
    ]);
  });

  it('rejects chains that do not start with the wrapped model, branch, or come without norms', () => {
    expect(() => privacyGuard({ norms: NORM, chain: 'E>C>X' })).toThrow(/must start with a single G/);
    expect(() => privacyGuard({ norms: NORM, chain: 'G>V>G' })).toThrow(PlanValidationError);
    expect(() => privacyGuard({ norms: NORM, chain: 'G' })).toThrow(/at least one stage after it/);
    expect(() => privacyGuard({ norms: NORM, chain: 'G>V*2>R' })).toThrow(/cannot branch/);
    expect(() => privacyGuard({ norms: [' '] })).toThrow(/at least one norm/);
  });
});
