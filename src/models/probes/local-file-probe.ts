import { stat } from 'node:fs/promises';
import type { ProviderProbe } from '../probe-endpoint.js';

/** The probe of local model files (`llamacpp:<path>`): the file must exist. No network. */
export const localFileProbe: ProviderProbe = async ({ spec }) => {
  const found = await stat(spec.modelId).catch(() => null);
  if (found?.isFile()) return { ok: true, checked: 'file' };
  return {
    ok: false,
    cause: 'missing-file',
    detail: found ? `${spec.modelId} is not a file` : `no file at ${spec.modelId}`,
  };
};
