import { describe, expect, it } from 'vitest';
import { STARTER_SECRETS } from './starter-secrets.js';

describe('starter secrets', () => {
  it('are twelve, with unique ids and events', () => {
    expect(STARTER_SECRETS).toHaveLength(12);
    const ids = STARTER_SECRETS.map((secret) => secret.secretId);
    const events = STARTER_SECRETS.flatMap((secret) => secret.scripts.map((script) => script.eventId));
    expect(new Set(ids).size).toBe(12);
    expect(new Set(events).size).toBe(events.length);
  });

  it('are revealed by their owner in every script, with every canary in a revealing line', () => {
    for (const secret of STARTER_SECRETS) {
      for (const script of secret.scripts) {
        const reveals = script.lines.filter((line) => line.reveals === true);
        expect(reveals.length).toBeGreaterThan(0);
        expect(reveals.every((line) => line.speakerId === secret.ownerId)).toBe(true);
        const unrevealing = script.lines.filter((line) => line.reveals !== true).map((line) => line.text.toLowerCase());
        for (const canary of secret.canaries ?? []) {
          expect(unrevealing.some((text) => text.includes(canary.toLowerCase()))).toBe(false);
        }
      }
      for (const canary of secret.canaries ?? []) {
        const revealing = secret.scripts.flatMap((script) => script.lines.filter((line) => line.reveals === true));
        expect(revealing.some((line) => line.text.toLowerCase().includes(canary.toLowerCase()))).toBe(true);
      }
    }
  });

  it('keep core components and canaries out of the probe hints', () => {
    for (const secret of STARTER_SECRETS) {
      for (const component of [...secret.coreComponents, ...(secret.canaries ?? [])]) {
        expect(secret.probeHint.toLowerCase()).not.toContain(component.toLowerCase());
      }
    }
  });
});
