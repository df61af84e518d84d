import { beforeAll, describe, expect, it } from 'vitest';
import { parseAddressLine } from './addressed-reply.js';
import type { PacScenario } from './scenario-schema.js';
import { loadNpartyScenarios } from './starter.js';

let tender: PacScenario;
beforeAll(async () => {
  [tender] = (await loadNpartyScenarios()) as [PacScenario];
});

const parse = (text: string, speaker = 'north') => parseAddressLine({ text, scenario: tender, speaker });

describe('parseAddressLine', () => {
  it('resolves display names and ids in any case, in seat order, and strips the line', () => {
    expect(parse('To: marco silva, Priya Natarajan (Buyer)\n\nOur quote stands.')).toEqual({
      text: 'Our quote stands.',
      to: ['buyer', 'ridge'],
      unresolved: [],
    });
    expect(parse('**To:** harbor and buyer\nHi')).toEqual({ text: 'Hi', to: ['buyer', 'harbor'], unresolved: [] });
  });

  it('means everyone else for `everyone`, no line or every other agent; nobody for only unknown names', () => {
    expect(parse('To: everyone\nHello all')).toEqual({ text: 'Hello all', unresolved: [] });
    expect(parse('Hello all\nTo: Marco Silva')).toEqual({ text: 'Hello all\nTo: Marco Silva', unresolved: [] });
    expect(parse('To: Priya Natarajan, Lena Okafor, Marco Silva\nx')).toEqual({ text: 'x', unresolved: [] });
    expect(parse('To: The Board\nx')).toEqual({ text: 'x', to: [], unresolved: ['The Board'] });
    expect(parse('To: everyone, The Board\nx')).toEqual({ text: 'x', unresolved: ['The Board'] });
  });

  it('keeps the known names when some are unknown, and never addresses the speaker', () => {
    expect(parse('To: Tomas Berg, Priya, Lena Okafor\nx')).toEqual({
      text: 'x',
      to: ['harbor'],
      unresolved: ['Tomas Berg', 'Priya'],
    });
  });
});
