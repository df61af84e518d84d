/**
 * A zod schema built on first use: `lazySchema(() => z.object({ … }))` has the built schema's type
 * and behaves as it does (parse, `shape`, `extend`, `instanceof`, a member of another schema), but
 * costs nothing until something reads it. For the schemas of data a normal run never parses (every
 * transcript event, a sample record, which only a debug run's full validation or a reader checks),
 * so start-up does not construct them. zod's methods are closures over the built instance, so
 * they work when called through the stand-in.
 */
export function lazySchema<Schema extends object>(build: () => Schema): Schema {
  let built: Schema | undefined;
  const real = (): Schema => {
    built ??= build();
    return built;
  };
  return new Proxy({} as Schema, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    ownKeys: () => Reflect.ownKeys(real()),
    // The stand-in's own target is an empty extensible object: a property is reported as
    // configurable, which a proxy may do for one its target lacks.
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
