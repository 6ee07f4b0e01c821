/** What the panel offers, derived from the declarations: every route with its permission, and each role's menu. */
import type { PaletteSearch } from './components/layout/CommandPalette';
import { type MenuEntry, buildMenu, labelOf, refineResourcesOf, routesOf } from './components/routing';
import { matchPath } from 'react-router';
import { type Account, DEFAULT_PAGE_SIZE, type HierarchyUser, can, isRole, ROLES } from './contract';
import { dataProvider } from './providers/dataProvider';
import { session } from './providers/session';
import { LoginPage, dashboard, profile } from './pages';
import { MENU_LAYOUTS, UNKNOWN_ROLE_MENU, panelResources } from './resources';

export const declarations = [dashboard, profile, ...panelResources];
export const refineResources = refineResourcesOf(declarations);
export const panelRoutes = routesOf(declarations);

const menus = new Map(Object.entries(MENU_LAYOUTS).map(([role, layout]) => [role, buildMenu(layout, declarations)]));
export const unknownRoleMenu = buildMenu(UNKNOWN_ROLE_MENU, declarations);

/** A role's menu; a missing or unknown role gets only Dashboard and MAC Check. */
export const menuFor = (role: string | null | undefined): MenuEntry[] => (isRole(role) ? menus.get(role)! : unknownRoleMenu);

/** What the command palette finds, in each list's own search: accounts by login, name or MAC; members by username. */
const PALETTE_ROWS: Record<string, PaletteSearch['row']> = {
  accounts: (r) => ({ key: (r as Account).login, subtitle: [(r as Account).full_name, (r as Account).mac_address].filter(Boolean).join(' · ') }),
  managers: (r) => ({ key: (r as HierarchyUser).username, subtitle: (r as HierarchyUser).name }),
  resellers: (r) => ({ key: (r as HierarchyUser).username, subtitle: (r as HierarchyUser).name }),
  dealers: (r) => ({ key: (r as HierarchyUser).username, subtitle: (r as HierarchyUser).name }),
};
const paletteSearches = new Map(
  ROLES.map((role) => [
    role,
    declarations.flatMap((r): PaletteSearch[] =>
      PALETTE_ROWS[r.name] && r.list && can(role, r.name, 'list')
        ? [{ resource: r.name, path: r.list.path, label: labelOf(r), icon: r.icon, row: PALETTE_ROWS[r.name] }]
        : [],
    ),
  ]),
);

/** The lists a role's command palette searches (those the role may read). */
export const paletteSearchesFor = (role: string | null | undefined): PaletteSearch[] => (isRole(role) ? paletteSearches.get(role)! : []);

const hasListView = (search: string) => [...new URLSearchParams(search).keys()].some((key) => /^(currentPage|pageSize|sorters|filters)\b/.test(key));

/**
 * Starts loading the page the browser opened before the routes render, beside the session check,
 * and what it asks the API for as it opens where the stored role may open it; without a session
 * every path leads to the sign-in page. Settles when the page's module has arrived (or failed to).
 */
export function preloadPage(pathname: string, signedIn: boolean, search = ''): Promise<unknown> {
  if (!signedIn) return LoginPage.preload().catch(() => undefined);
  const route = panelRoutes.find((r) => matchPath(r.path, pathname));
  if (!route) return Promise.resolve();
  if (can(session.role(), ...route.access)) {
    for (const call of route.firstCalls ?? []) {
      if ('get' in call) dataProvider.prefetchGet(call.get);
      else if ('path' in call) dataProvider.prefetchList({ resource: call.list, meta: { path: call.path }, pagination: { mode: 'off' } });
      // A list's first page as it opens fresh; a URL with a list's view asks for that view instead (listLocation.ts).
      else if (!hasListView(search))
        dataProvider.prefetchList({ resource: call.list, pagination: { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE, mode: 'server' }, filters: [], sorters: [] });
    }
  }
  // The module after the calls: its chunks are many requests, and would otherwise take the few
  // connections the browser opens to the server ahead of them.
  return route.page.preload().catch(() => undefined);
}
