/**
 * Every entity of the panel: the declaration that each folder's index.tsx exports (src/components/routing
 * says how a declaration reads). A new folder is picked up by its name; nothing here lists them.
 */
import type { PanelResource } from '../components/routing';

// Eager: the routes and menus need every declaration at once. A declaration is a few lines, and its
// pages stay in chunks of their own (lazyPage), loaded when a route first opens.
const modules = import.meta.glob<Record<string, PanelResource>>('./*/index.tsx', { eager: true });

/** The declarations a module map exports, in folder-name order. */
export const declarationsOf = (map: Record<string, unknown>): PanelResource[] =>
  Object.keys(map)
    .sort()
    .flatMap((file) => Object.values(map[file] as Record<string, PanelResource>));

export const panelResources: PanelResource[] = declarationsOf(modules);

export { MENU_LAYOUTS, UNKNOWN_ROLE_MENU } from './menus';
