const processWide = globalThis as unknown as { gkSingletons?: Map<string, unknown> };

/**
 * One instance per process under `key`, made on first use. Module state is not enough: Next's dev
 * server re-evaluates modules on every change, and it bundles a module once per route, so one
 * server process can hold several copies of a module. globalThis is shared by all of them.
 */
export function processSingleton<T>(key: string, create: () => T): T {
  const all = (processWide.gkSingletons ??= new Map());
  if (!all.has(key)) all.set(key, create());
  return all.get(key) as T;
}
