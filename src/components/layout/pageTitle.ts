/** Page titles from the declarations: the h1 of pages without their own, and the browser tab's title. */
import { matchPath } from 'react-router';
import { ACCESS, LAYOUT, PANEL_NAMES, TWO_FACTOR, TWO_FACTOR_ENROL_PATH, isRole } from '../../contract';
import { type PanelResource, type PanelRoute, labelOf } from '../routing';

/** The declared route that answers the path, with its resource. */
export function routeFor(pathname: string, resources: readonly PanelResource[]): { resource: PanelResource; route: PanelRoute } | null {
  for (const resource of resources) {
    const routes = [resource.list, resource.create, resource.edit, resource.show, ...(resource.routes ?? [])];
    const route = routes.find((r) => r && matchPath({ path: r.path, end: true }, pathname));
    if (route) return { resource, route };
  }
  return null;
}

/** What the page at `pathname` is called: its route's title, else its resource's label. */
export function pageTitleFor(pathname: string, resources: readonly PanelResource[]): string {
  if (matchPath({ path: '/login', end: true }, pathname)) return LAYOUT.signIn;
  if (matchPath({ path: '/unauthorized', end: true }, pathname)) return ACCESS.denied;
  if (matchPath({ path: TWO_FACTOR_ENROL_PATH, end: true }, pathname)) return TWO_FACTOR.title;
  const found = routeFor(pathname, resources);
  return found ? (found.route.title ?? labelOf(found.resource)) : ACCESS.notFound;
}

/** The browser tab: '<Page> · <panel name>' (the role's, as the header shows it; the brand before sign-in). */
export function documentTitle(page: string, role: string | null | undefined): string {
  return `${page}${LAYOUT.titleSeparator}${isRole(role) ? PANEL_NAMES[role] : LAYOUT.brand}`;
}
