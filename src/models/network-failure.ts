/** What kept a request from getting an HTTP answer, in one word. */
export type NetworkFailureKind = 'connection-refused' | 'dns' | 'timeout' | 'tls' | 'network';

/** A network failure in words: its kind and a short phrase naming what happened. */
export type NetworkFailure = { kind: NetworkFailureKind; words: string };

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH)/;

function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
}

/** The error and its `cause` chain (fetch wraps the socket error: `TypeError('fetch failed', { cause })`). */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    const errors = fieldOf(current, 'errors');
    // Node's happy-eyeballs connect raises an AggregateError of one error per address.
    if (Array.isArray(errors) && errors.length > 0) chain.push(...errors);
    current = fieldOf(current, 'cause');
  }
  return chain;
}

/**
 * Recognises a failure below HTTP (refused connection, unknown host, timeout, TLS) anywhere in an
 * error's cause chain, by the Node error codes of `net`, `dns` and `tls` and by abort/timeout
 * names. Returns `undefined` for anything else (an HTTP error status, a bug).
 */
export function describeNetworkFailure(error: unknown): NetworkFailure | undefined {
  const chain = chainOf(error);
  const codes = chain.map((item) => fieldOf(item, 'code')).filter((code): code is string => typeof code === 'string');
  const names = chain.map((item) => fieldOf(item, 'name'));
  if (codes.includes('ECONNREFUSED')) return { kind: 'connection-refused', words: 'connection refused' };
  if (codes.some((code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')) {
    return { kind: 'dns', words: 'DNS lookup failed (unknown host)' };
  }
  const tls = codes.find((code) => TLS_CODE.test(code));
  if (tls) return { kind: 'tls', words: `TLS error (${tls})` };
  if (
    codes.some(
      (code) => code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT',
    ) ||
    names.includes('TimeoutError')
  ) {
    return { kind: 'timeout', words: 'no answer in time' };
  }
  const socket = codes.find((code) => /^E[A-Z]+$/.test(code));
  if (socket) return { kind: 'network', words: `network error (${socket})` };
  if (chain.some((item) => item instanceof TypeError && /fetch failed/i.test(String(fieldOf(item, 'message'))))) {
    return { kind: 'network', words: 'network error' };
  }
  return undefined;
}
