/** Components whose code loads on first use, or earlier through `preload`. */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type Preloadable<C extends ComponentType<any>> = LazyExoticComponent<C> & { preload: () => Promise<unknown> };

/**
 * The component `name` of the module `load` imports, loaded when it first renders or when `preload`
 * is called (whichever comes first; the module is imported once).
 */
export function lazyComponent<M extends Record<string, unknown>, K extends keyof M & string>(load: () => Promise<M>, name: K): Preloadable<M[K] & ComponentType<any>> {
  type C = M[K] & ComponentType<any>;
  let loading: Promise<M> | undefined;
  let loaded: M | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module;
      return module;
    }));
  const component = (module: M) => ({ default: module[name] as C });
  return Object.assign(
    // A module that has already arrived is handed over at once: React's lazy reads a thenable that
    // calls back synchronously as resolved, where a resolved promise would still suspend for one more
    // render behind its fallback.
    lazy<C>(() =>
      loaded
        ? ({ then: (resolve: (value: ReturnType<typeof component>) => void) => resolve(component(loaded!)) } as unknown as Promise<ReturnType<typeof component>>)
        : preload().then(component),
    ),
    { preload },
  );
}
