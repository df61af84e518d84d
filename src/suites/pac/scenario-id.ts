import type { PacPolicyType, PacScenarioSplit } from './scenario-schema.js';

/** The parts of a PAC scenario id. */
export type PacScenarioIdParts = {
  split: PacScenarioSplit;
  policyType: PacPolicyType;
  domain: string;
  /** The `k` of `policy_<k>.json`. */
  policy: number;
};

/**
 * The stable id of a scenario: `<split>/<Domain>/policy_<k>` for paper data (e.g.
 * `range/Banks/policy_0`), `<starter|nparty|features>/<type>/<Domain>/policy_<k>` for our bundled
 * data (the starters, the N-party starters, the feature scenarios).
 */
export function formatPacScenarioId({ split, policyType, domain, policy }: PacScenarioIdParts): string {
  const prefix = split === 'change' || split === 'range' || split === 'custom' ? split : `${split}/${policyType}`;
  return `${prefix}/${domain}/policy_${policy}`;
}

const PAPER_ID = /^(change|range)\/([^/]+)\/policy_(\d+)$/;
const STARTER_ID = /^(starter|nparty|features)\/(change|range)\/([^/]+)\/policy_(\d+)$/;

/**
 * Reads an id written by {@link formatPacScenarioId} back into its parts; `undefined` for any
 * other string. Metrics use it for samples whose output was lost to an error.
 */
export function parsePacScenarioId(id: string): PacScenarioIdParts | undefined {
  const paper = PAPER_ID.exec(id);
  if (paper !== null) {
    const split = paper[1] as PacPolicyType;
    return { split, policyType: split, domain: paper[2] ?? '', policy: Number(paper[3]) };
  }
  const starter = STARTER_ID.exec(id);
  if (starter !== null) {
    return {
      split: starter[1] as 'starter' | 'nparty' | 'features',
      policyType: starter[2] as PacPolicyType,
      domain: starter[3] ?? '',
      policy: Number(starter[4]),
    };
  }
  return undefined;
}
