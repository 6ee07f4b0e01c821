/** What the panel offers, derived from the declarations: every route with its permission, and each role's menu. */
import { type MenuEntry, buildMenu, refineResourcesOf, routesOf } from './components/routing';
import { matchPath } from 'react-router';
import { isRole } from './contract';
import { LoginPage, dashboard, profile } from './pages';
import { MENU_LAYOUTS, UNKNOWN_ROLE_MENU, panelResources } from './resources';

export const declarations = [dashboard, profile, ...panelResources];
export const refineResources = refineResourcesOf(declarations);
export const panelRoutes = routesOf(declarations);

const menus = new Map(Object.entries(MENU_LAYOUTS).map(([role, layout]) => [role, buildMenu(layout, declarations)]));
export const unknownRoleMenu = buildMenu(UNKNOWN_ROLE_MENU, declarations);

/** A role's menu; a missing or unknown role gets only Dashboard and MAC Check. */
export const menuFor = (role: string | null | undefined): MenuEntry[] => (isRole(role) ? menus.get(role)! : unknownRoleMenu);

/**
 * Starts loading the page the browser opened before the routes render, beside the session check;
 * without a session every path leads to the sign-in page.
 */
export function preloadPage(pathname: string, signedIn: boolean): void {
  if (!signedIn) void LoginPage.preload();
  else void panelRoutes.find((route) => matchPath(route.path, pathname))?.page.preload();
}
