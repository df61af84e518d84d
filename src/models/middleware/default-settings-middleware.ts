import type { GenerateSettings, ModelMiddleware } from '../../spec/chat-model.js';

/**
 * The outermost layer of a model whose role declares default settings (judges decode with
 * temperature 0 and a fixed seed): each request starts from `defaults`, and whatever settings the
 * request carries (the role's `--model-setting`, the caller's own) win. Sitting outside the
 * events recorder and the cache, the defaults are what gets recorded and keyed.
 */
export function defaultSettingsMiddleware(defaults: GenerateSettings): ModelMiddleware {
  return {
    id: 'default-settings',
    wrapGenerate: ({ request, next }) => next({ ...request, settings: { ...defaults, ...request.settings } }),
  };
}
