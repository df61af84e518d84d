import { ModelSpecError } from '../spec/errors.js';
import type { ModelSpec, RoleBinding } from '../spec/model-spec.js';
import { findProvider } from './provider-registry.js';

/** The syntax shown in every spec error, so a user can fix the string without reading docs. */
export const MODEL_SPEC_SYNTAX =
  'provider:model[@baseURL[,baseURL…]] (for example openai:gpt-4o-mini, ollama:qwen3:32b or vllm:my-model@http://127.0.0.1:8000/v1)';

const PROVIDER_PATTERN = /^[a-z][a-z0-9-]*$/;
const ROLE_PATTERN = /^[a-z][a-z0-9-]*$/;
/**
 * Every `@` that starts a base-URL list (any scheme, so `@ftp://…` is refused as a URL instead of
 * being kept, credentials and all, as part of the model id); the last one wins so model ids may
 * contain `@`.
 */
const URL_LIST_START = /@(?=[a-z][a-z0-9+.-]*:\/\/)/gi;

function specError(spec: string, problem: string): ModelSpecError {
  return new ModelSpecError(`invalid model spec "${redactSpec(spec)}": ${problem}; expected ${MODEL_SPEC_SYNTAX}`);
}

/**
 * A spec (or `--model` argument) as it may be shown or stored: every URL in it, up to the next
 * `,` or `@scheme://`, through {@link redactEndpoint}, then the value of any credential-like `?name=` / `&name=`
 * left (in a piece that did not parse as a URL) replaced by `…`. Whatever the text, a credential
 * given as URL user-info or query parameter does not survive.
 */
export function redactSpec(spec: string): string {
  return spec
    .replace(/[a-z][a-z0-9+.-]*:\/\/(?:(?!@[a-z][a-z0-9+.-]*:\/\/)[^,])*/gi, (url) => redactEndpoint(url))
    .replace(/([?&])([^=&#?\s,]*)=[^&#\s,]*/g, (whole, mark: string, name: string) =>
      isCredentialParameter(name) ? `${mark}${name}=…` : whole,
    );
}

function isCredentialParameter(name: string): boolean {
  return CREDENTIAL_PARAMETER.test(name.toLowerCase().replace(/-/g, '_'));
}

/** Query parameters that carry a credential (matched case-insensitively, `-`/`_` ignored). */
const CREDENTIAL_PARAMETER =
  /^(?:api_?key|key|token|access_?token|auth|authorization|bearer|password|passwd|pwd|secret|client_?secret|sig|signature|x_?api_?key|session|credential|credentials)$/;

/** What credential a base URL carries, or `undefined`. */
function credentialIn(url: URL): string | undefined {
  if (url.username !== '' || url.password !== '') return 'user-info credentials (user:password@)';
  for (const name of url.searchParams.keys()) {
    if (isCredentialParameter(name)) return `the query parameter "${name}"`;
  }
  return undefined;
}

/**
 * Parses `provider:model[@baseURL[,baseURL…]]`. The provider is everything before the first
 * `:`; the base-URL list starts at the last `@` followed by `http://` or `https://`; the model
 * id is what lies between and may itself contain `:` or `@` (e.g. `ollama:qwen3:32b`).
 * Base URLs are kept as given (they are needed to connect); use `redactEndpoint` before storing.
 * Throws `ModelSpecError` (a user error) with the expected syntax on malformed input.
 */
export function parseModelSpec(spec: string): ModelSpec {
  const text = spec.trim();
  const colon = text.indexOf(':');
  if (colon < 0) throw specError(spec, 'no ":" between provider and model');
  const provider = text.slice(0, colon);
  if (!PROVIDER_PATTERN.test(provider)) {
    throw specError(spec, `provider "${provider}" must be lower-case letters, digits or "-"`);
  }
  const rest = text.slice(colon + 1);
  let urlStart = -1;
  for (const match of rest.matchAll(URL_LIST_START)) urlStart = match.index;
  const modelId = urlStart < 0 ? rest : rest.slice(0, urlStart);
  if (modelId.length === 0) throw specError(spec, 'the model id is empty');
  const baseURLs =
    urlStart < 0
      ? []
      : rest
          .slice(urlStart + 1)
          .split(',')
          .map((url) => checkBaseURL(spec, url, provider));
  return { provider, modelId, baseURLs };
}

function checkBaseURL(spec: string, raw: string, provider: string): string {
  const url = raw.trim();
  if (url.length === 0) throw specError(spec, 'a base URL in the list is empty');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw specError(spec, `"${redactEndpoint(url)}" is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw specError(spec, `base URL "${redactEndpoint(url)}" must use http or https`);
  }
  const credential = credentialIn(parsed);
  if (credential !== undefined) {
    // Never sent (the providers authenticate by header) and never stored: refused, with the way that works.
    const variables = findProvider(provider)?.apiKeyEnv ?? [];
    const instead =
      variables.length > 0
        ? `set the environment variable ${variables.join(' or ')} instead`
        : "pass the key through the provider's API-key environment variable instead";
    throw new ModelSpecError(
      `invalid model spec "${redactSpec(spec)}": base URL "${redactEndpoint(url)}" carries ${credential}; credentials in a URL are neither sent nor stored, ${instead}`,
    );
  }
  return url;
}

/**
 * Parses a `--model` argument: `role=spec`, or a bare spec meaning role `agent`. The text
 * before the first `=` is a role only when it comes before the first `:`, so a bare spec whose
 * URL has `=` in its query string is not split. Roles match `[a-z][a-z0-9-]*`; whether a role is
 * known is checked later, when roles are resolved. The spec is validated here.
 */
export function parseRoleBinding(arg: string): RoleBinding {
  const text = arg.trim();
  const equals = text.indexOf('=');
  const colon = text.indexOf(':');
  const hasRole = equals >= 0 && (colon < 0 || equals < colon);
  const role = hasRole ? text.slice(0, equals).trim() : 'agent';
  const spec = hasRole ? text.slice(equals + 1).trim() : text;
  if (!ROLE_PATTERN.test(role)) {
    throw new ModelSpecError(
      `invalid --model "${redactSpec(arg)}": role "${role}" must match [a-z][a-z0-9-]*; expected role=${MODEL_SPEC_SYNTAX} or a bare spec for role agent`,
    );
  }
  parseModelSpec(spec);
  return { role, spec };
}

/**
 * The form of a base URL that may be stored (run header, cache key, events): user-info
 * credentials, the query string and the fragment are removed. An unparsable URL becomes
 * `<invalid-url>` rather than being echoed, since it might hold a secret.
 */
export function redactEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<invalid-url>';
  }
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}
