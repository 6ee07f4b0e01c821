/** What the panel offers, derived from the declarations: every route with its permission, and each role's menu. */
import { type MenuEntry, buildMenu, refineResourcesOf, routesOf } from './components/routing';
import { matchPath } from 'react-router';
import { DEFAULT_PAGE_SIZE, can, isRole } from './contract';
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
