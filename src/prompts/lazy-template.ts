/**
 * A template loaded on first use: returns a stand-in for `load()`'s result that calls `load`
 * (once) the first time any property is read, listed or tested, then behaves as that object
 * (same keys, values, frozenness). Modules export their templates as constants without reading
 * and parsing every prompt file at import, so a command that never runs a suite (`--help`)
 * pays nothing for them. A broken file throws its `PromptTemplateError` on first use instead of
 * at import. `load` must return an object (a template), not a primitive.
 */
export function lazyTemplate<T extends object>(load: () => T): T {
  // The proxy's target becomes a copy of the loaded object, so every proxy invariant
  // (non-configurable keys, frozenness) holds against the target itself.
  const target = {} as T;
  let loaded = false;
  const ensure = (): T => {
    if (!loaded) {
      const value = load();
      Object.defineProperties(target, Object.getOwnPropertyDescriptors(value));
      Object.setPrototypeOf(target, Object.getPrototypeOf(value));
      if (Object.isFrozen(value)) Object.freeze(target);
      loaded = true;
    }
    return target;
  };
  return new Proxy(target, {
    get: (_, key) => Reflect.get(ensure(), key),
    has: (_, key) => Reflect.has(ensure(), key),
    ownKeys: () => Reflect.ownKeys(ensure()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(ensure(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(ensure()),
    setPrototypeOf: (_, proto) => Reflect.setPrototypeOf(ensure(), proto),
    isExtensible: () => Reflect.isExtensible(ensure()),
    preventExtensions: () => Reflect.preventExtensions(ensure()),
    set: (_, key, value) => Reflect.set(ensure(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(ensure(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(ensure(), key),
  });
}
