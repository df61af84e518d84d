import { type FilteredSearchResult, searchWithRetrievalFilters } from '../retrieval/filtered-search.js';
import type { AccessContext, Chunk, ChunkFilter, Retriever } from '../spec/chunk.js';
import type { Defense } from '../spec/defense.js';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import { ACCESS_CONTROLLED_RETRIEVAL_DESCRIPTION } from './defense-catalog.js';

/**
 * Which rule decides visibility (PrivacyBench §9): `secret-acl` (default) shows a chunk dated at
 * or before the conversation time when the requester is authorized for every secret it carries;
 * `participants` also requires the requester to have taken part in the document, unless it is
 * a blog, which blocks owner-only documents (AI chats, purchases) and third-party conversations.
 */
export type AccessPolicy = 'secret-acl' | 'participants';

/** The rule a withheld chunk broke. */
export type AccessRule = 'after-conversation-time' | 'unauthorized-secret' | 'not-a-participant';

/** Whether one chunk is visible to the requester, and if not, which rule withheld it and why. */
export type AccessDecision =
  | { visible: true }
  | { visible: false; rule: AccessRule; unauthorizedSecretIds: string[]; reason: string };

/** The access-controlled retrieval defense, with its policy and per-chunk decisions exposed. */
export type AccessControlledRetrievalDefense = Extract<Defense, { kind: 'retrieval-filter' }> & {
  readonly policy: AccessPolicy;
  decide(options: { chunk: Chunk; access: AccessContext }): AccessDecision;
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Milliseconds since the epoch for an ISO 8601 date or date-time, or null. A date means its
 * first instant in UTC and a date-time without an offset is read as UTC, so the answer never
 * depends on the machine's time zone.
 */
function instantOf(text: string): number | null {
  const normalized = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : NO_ZONE.test(text) ? `${text}Z` : text;
  const value = Date.parse(normalized);
  return Number.isNaN(value) ? null : value;
}

// A filtered search may test every chunk of a large index against one conversation time, so
// parsed times are remembered: per chunk object (chunks are immutable), and the last `at`.
const chunkInstants = new WeakMap<Chunk, number | null>();
let lastAt: { text: string; instant: number | null } = { text: '', instant: null };

function chunkInstant(chunk: Chunk): number | null {
  let instant = chunkInstants.get(chunk);
  if (instant === undefined) {
    instant = instantOf(chunk.provenance.time);
    chunkInstants.set(chunk, instant);
  }
  return instant;
}

function accessInstant(at: string): number | null {
  if (lastAt.text !== at) lastAt = { text: at, instant: instantOf(at) };
  return lastAt.instant;
}

/**
 * Applies the §9 rule to one chunk. The rules are checked in order (time, secrets, then
 * participation for the `participants` policy) and the first broken one is reported; the
 * unauthorized secrets are listed whichever rule broke. A chunk without secrets passes the
 * secret rule; the owner's own AI chats pass it for the owner (the owner is authorized for
 * their own secrets) and for nobody else when they carry a secret. A chunk whose time cannot
 * be read is withheld; an unreadable `access.at` throws, because it would hide everything.
 */
export function decideChunkAccess({
  chunk,
  access,
  policy = 'secret-acl',
}: {
  chunk: Chunk;
  access: AccessContext;
  policy?: AccessPolicy;
}): AccessDecision {
  const now = accessInstant(access.at);
  if (now === null) {
    throw new ConfidantError(`access-controlled retrieval: the conversation time '${access.at}' is not an ISO date`);
  }
  const { provenance } = chunk;
  const unauthorizedSecretIds =
    provenance.secretIds.length === 0 ? [] : provenance.secretIds.filter((secretId) => !access.isAuthorized(secretId));
  const time = chunkInstant(chunk);
  if (time === null || time > now) {
    return {
      visible: false,
      rule: 'after-conversation-time',
      unauthorizedSecretIds,
      reason:
        time === null
          ? `its time '${provenance.time}' is not an ISO date`
          : `dated ${provenance.time}, after the conversation time ${access.at}`,
    };
  }
  if (unauthorizedSecretIds.length > 0) {
    return {
      visible: false,
      rule: 'unauthorized-secret',
      unauthorizedSecretIds,
      reason: `carries ${unauthorizedSecretIds.length === 1 ? 'secret' : 'secrets'} ${unauthorizedSecretIds.join(', ')}, not authorized for ${access.requesterId}`,
    };
  }
  if (
    policy === 'participants' &&
    provenance.docType !== 'blog' &&
    !provenance.participants.includes(access.requesterId)
  ) {
    return {
      visible: false,
      rule: 'not-a-participant',
      unauthorizedSecretIds,
      reason: `${access.requesterId} took no part in this ${provenance.docType} document`,
    };
  }
  return { visible: true };
}

/**
 * The `access-controlled-retrieval` defense (alias `acr`) for PrivacyBench's assistant turns:
 * a retrieval filter, applied before top-k, that hides every chunk the requester may not see
 * under `policy`. It composes with prompt and responder defenses (it never answers).
 */
export function createAccessControlledRetrieval(policy: AccessPolicy = 'secret-acl'): AccessControlledRetrievalDefense {
  const decide = ({ chunk, access }: { chunk: Chunk; access: AccessContext }) =>
    decideChunkAccess({ chunk, access, policy });
  return {
    id: policy === 'secret-acl' ? 'access-controlled-retrieval' : `access-controlled-retrieval:${policy}`,
    description:
      policy === 'secret-acl'
        ? ACCESS_CONTROLLED_RETRIEVAL_DESCRIPTION
        : 'Access-controlled retrieval (participants): also hides documents the requester took no part in (blogs stay visible).',
    kind: 'retrieval-filter',
    appliesTo: ['assistant-turn'],
    policy,
    decide,
    filter: (options) => decide(options).visible,
    explain: (options) => {
      const decision = decide(options);
      return decision.visible ? 'visible' : decision.reason;
    },
  };
}

/** The default policy (`secret-acl`). */
export const accessControlledRetrievalDefense = createAccessControlledRetrieval();

/** `acr`, `acr:secret-acl` or `acr:participants`; anything else is a PlanValidationError. */
export function accessControlledRetrievalFromParameter(parameter: string | undefined): Defense {
  if (parameter === undefined || parameter === 'secret-acl') return accessControlledRetrievalDefense;
  if (parameter === 'participants') return createAccessControlledRetrieval('participants');
  throw new PlanValidationError(
    `defense 'access-controlled-retrieval' takes ':secret-acl' or ':participants', got ':${parameter}'; write acr, acr:secret-acl or acr:participants`,
  );
}

/**
 * One access-controlled retrieval: the `k` best chunks visible to `access.requesterId` at
 * `access.at` under `policy` (after the optional `baseFilter`, e.g. the date filter), plus
 * the chunks of the unfiltered top `k` that were withheld and why. Pass the result to
 * `retrievalFilterEvents` (retrieval/) for the turn's single `defense-action` event.
 */
export function searchWithAccessControl({
  retriever,
  query,
  k,
  access,
  policy = 'secret-acl',
  baseFilter,
}: {
  retriever: Retriever;
  query: string;
  k: number;
  access: AccessContext;
  policy?: AccessPolicy;
  baseFilter?: ChunkFilter;
}): Promise<FilteredSearchResult> {
  const defense = policy === 'secret-acl' ? accessControlledRetrievalDefense : createAccessControlledRetrieval(policy);
  return searchWithRetrievalFilters({
    retriever,
    query,
    k,
    access,
    defenses: [defense],
    ...(baseFilter ? { baseFilter } : {}),
  });
}
