/** The product's required route table (src/contract/routes.ts) and what the route tests ask of it. */
import { ROUTES, type Role, type RouteSpec } from '../../src/contract';

export type { Allowed } from '../../src/contract';
export type SpecRoute = RouteSpec;
/** The route table lives in the contract (src/contract/routes.ts), read by the panel and by these tests. */
export const SPEC_ROUTES: SpecRoute[] = ROUTES;

/** The roles that may open a route by the contract: the required ones, or the deliberate difference. */
export const contractRoles = (route: SpecRoute): 'public' | readonly Role[] => route.contract ?? route.spec;

/** '/managers/edit/:id' -> '/managers/edit/{id}' (React Router to the route table's notation). */
export const specPath = (routerPath: string): string => routerPath.replace(/:([A-Za-z_]+)/g, '{$1}');

export const routeFor = (path: string): SpecRoute | undefined => SPEC_ROUTES.find((r) => r.path === specPath(path));

export const UNKNOWN_ROLE = 'superuser';
