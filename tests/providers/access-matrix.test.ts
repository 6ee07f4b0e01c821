/**
 * The access matrix for every route of the route table and every role (the four and an unknown one),
 * through the contract's can() and the access-control provider (on the role of the signed-in
 * identity); and the menus of each role, derived from the declarations.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { MenuEntry } from '../../src/components/routing';
import { ACCESS, MENUS, type MenuSpec, PERMISSIONS, ROLES, UNKNOWN_ROLE_MENU, can } from '../../src/contract';
import { selectedKey } from '../../src/components/layout/AppMenu';
import { declarations, menuFor, panelRoutes, unknownRoleMenu } from '../../src/navigation';
import { createAccessControlProvider } from '../../src/providers/accessControlProvider';
import { http } from '../../src/providers/http';
import { identity } from '../../src/providers/identity';
import { menuLabels } from '../e2e/menus';
import { fakeHttp } from './fakeHttp';
import { SPEC_ROUTES, type SpecRoute, UNKNOWN_ROLE, contractRoles, routeFor, specPath } from './routeTable';

const ALL_ROLES = [...ROLES, UNKNOWN_ROLE] as const;

/** May this role open this route, by the table (required roles plus the contract's deliberate differences)? */
function expected(route: SpecRoute, role: string): boolean {
  const roles = contractRoles(route);
  if (roles === 'public') return true;
  if (!(ROLES as readonly string[]).includes(role)) return route.unknownRole === true;
  return (roles as readonly string[]).includes(role);
}

/** The guard actually declared for a path: the panel resource's route when one exists, else the table's. */
function declaredAccess(route: SpecRoute): readonly [string, string] | null {
  const declared = panelRoutes.find((r) => specPath(r.path) === route.path);
  return declared ? declared.access : route.access;
}

const mayOpen = (role: string, access: readonly [string, string] | null) => access === null || can(role, access[0], access[1]);

/** The provider over a fake API whose GET /user answers with `role` (none: not signed in). */
function providerFor(role: string | null) {
  localStorage.clear();
  identity.clear();
  const fake = fakeHttp(http);
  if (role !== null) {
    localStorage.setItem('token', `token-${role}`);
    fake.on('GET', 'user', { status: 200, body: { id: 1, name: 'Test', username: 'test', role } });
  }
  return createAccessControlProvider(fake.http);
}

beforeEach(() => {
  localStorage.clear();
  identity.clear();
});

describe('the route table', () => {
  it('lists every route of the route table once', () => {
    const paths = SPEC_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    // The required table's 34 routes; a resource added since adds its own rows.
    expect(paths.length).toBeGreaterThanOrEqual(34);
  });

  it('guards every non-public route with a permission the contract declares', () => {
    for (const route of SPEC_ROUTES.filter((r) => r.spec !== 'public')) {
      expect(route.access, route.path).not.toBeNull();
      const [resource, action] = route.access!;
      expect(PERMISSIONS, route.path).toHaveProperty([resource, action]);
    }
  });

  it('has a row for every route the panel resources declare, guarded the same way for every role', () => {
    const declared = panelRoutes;
    expect(declared.length).toBeGreaterThan(0);
    for (const panelRoute of declared) {
      const row = routeFor(panelRoute.path);
      expect(row, `${panelRoute.path} is not a route of the route table`).toBeDefined();
      for (const role of ALL_ROLES) {
        expect(mayOpen(role, panelRoute.access), `${role} on ${panelRoute.path}`).toBe(expected(row!, role));
      }
    }
  });
});

describe.each(ALL_ROLES)('role %s', (role) => {
  it.each(SPEC_ROUTES.filter((r) => r.spec !== 'public'))('contract can() on $path', (route) => {
    expect(mayOpen(role, declaredAccess(route))).toBe(expected(route, role));
  });

  it.each(SPEC_ROUTES.filter((r) => r.access !== null))('accessControlProvider.can on $path', async (route) => {
    const [resource, action] = declaredAccess(route)!;
    const answer = await providerFor(role).can({ resource, action });
    if (expected(route, role)) expect(answer).toEqual({ can: true });
    else expect(answer).toEqual({ can: false, reason: ACCESS.forbidden });
  });
});

describe('deliberate differences from the required table', () => {
  it('/dealers and /dealers/edit/{id} are for admin, manager and reseller only (not dealer)', () => {
    for (const path of ['/dealers', '/dealers/edit/{id}']) {
      const route = SPEC_ROUTES.find((r) => r.path === path)!;
      expect(ROLES.filter((role) => mayOpen(role, declaredAccess(route)))).toEqual(['admin', 'manager', 'reseller']);
    }
  });
});

describe('an unknown role', () => {
  it('opens only the Dashboard and MAC Check', () => {
    const open = SPEC_ROUTES.filter((r) => r.spec !== 'public' && mayOpen(UNKNOWN_ROLE, declaredAccess(r))).map((r) => r.path);
    expect(open).toEqual(['/', '/dashboard', '/mac-search']);
  });

  it('is refused every action other than listing the dashboard and MAC check, on every resource', () => {
    for (const [resource, actions] of Object.entries(PERMISSIONS)) {
      for (const action of Object.keys(actions)) {
        const allowed = (resource === 'dashboard' || resource === 'mac-search') && action === 'list';
        expect(can(UNKNOWN_ROLE, resource, action), `${resource}.${action}`).toBe(allowed);
      }
    }
  });

  it('is what a session without an identity gets from the provider', async () => {
    const provider = providerFor(null);
    expect(await provider.can({ resource: 'mac-search', action: 'list' })).toEqual({ can: true });
    expect(await provider.can({ resource: 'accounts', action: 'list' })).toEqual({ can: false, reason: ACCESS.forbidden });
  });

  it('reads the role from the identity, not from what the browser stored', async () => {
    const provider = providerFor('dealer');
    localStorage.setItem('userRole', 'admin');
    expect(await provider.can({ resource: 'managers', action: 'list' })).toEqual({ can: false, reason: ACCESS.forbidden });
    expect(await provider.can({ resource: 'accounts', action: 'list' })).toEqual({ can: true });
  });
});

describe('the contract', () => {
  it('refuses unknown resources and actions to every role', () => {
    for (const role of ALL_ROLES) {
      expect(can(role, 'no-such-resource', 'list')).toBe(false);
      expect(can(role, 'managers', 'no-such-action')).toBe(false);
    }
    expect(can('admin', '', 'list')).toBe(false);
  });

  it('gives admin every declared permission except reading user announcements and user search', () => {
    for (const [resource, actions] of Object.entries(PERMISSIONS)) {
      for (const action of Object.keys(actions)) {
        const adminExcluded = resource === 'user-announcements' || resource === 'user-search';
        expect(can('admin', resource, action), `${resource}.${action}`).toBe(!adminExcluded);
      }
    }
  });
});

// ---- menus per role (docs/domain.md#routes-and-menus) ----

type Shape = string | { group: string; children: string[] };
const shape = (entries: MenuEntry[]): Shape[] => entries.map((e) => ('group' in e ? { group: e.group, children: e.children.map((c) => c.path) } : e.path));
const links = (entries: MenuEntry[]) => entries.flatMap((e) => ('group' in e ? e.children : [e]));

/** A resource's menu link opens the shortest of its list routes in the route table ('/users', not '/accounts'). */
const listPath = (resource: string) =>
  SPEC_ROUTES.filter((r) => r.access?.[0] === resource && r.access[1] === 'list')
    .map((r) => r.path)
    .sort((a, b) => a.length - b.length)[0];
const pathsOf = (menu: MenuSpec): Shape[] => menu.map((e) => (typeof e === 'string' ? listPath(e) : { group: e.group, children: e.children.map(listPath) }));

/** The contract's menus (src/contract/routes.ts) as paths. */
const SPEC_MENUS: Record<string, Shape[]> = {
  ...Object.fromEntries(Object.entries(MENUS).map(([role, menu]) => [role, pathsOf(menu)])),
  [UNKNOWN_ROLE]: pathsOf(UNKNOWN_ROLE_MENU),
};

/** Labels the menus must show. */
const SPEC_LABELS: Record<string, string> = {
  '/': 'Dashboard',
  '/global-discounts': 'User Promo',
  '/user-promos': 'Dealer Promo',
  '/settings': 'System Settings',
  '/mac-search': 'MAC Check',
};

describe.each(ALL_ROLES)('menu of %s', (role) => {
  const menu = menuFor(role);

  it('has exactly the required entries, order and groups', () => {
    expect(shape(menu)).toEqual(SPEC_MENUS[role]);
  });

  it('uses the required labels', () => {
    for (const link of links(menu)) {
      if (SPEC_LABELS[link.path]) expect(link.label, link.path).toBe(SPEC_LABELS[link.path]);
    }
  });

  it('links only to routes the role may open', () => {
    for (const link of links(menu)) {
      const route = routeFor(link.path);
      expect(route, `${link.path} is a route of the route table`).toBeDefined();
      expect(mayOpen(role, declaredAccess(route!)), `${role} may open ${link.path}`).toBe(true);
    }
  });
});

describe('menus', () => {
  it('match the labels the browser tests expect, for the four roles', () => {
    const flat = (entries: MenuEntry[]): string[] => entries.flatMap((e) => ('group' in e ? [e.group, ...e.children.map((c) => c.label)] : [e.label]));
    for (const role of ROLES) expect(flat(menuFor(role)), role).toEqual(menuLabels(role));
  });

  it('give the unknown-role menu to a missing or empty role', () => {
    expect(menuFor(null)).toBe(unknownRoleMenu);
    expect(menuFor(undefined)).toBe(unknownRoleMenu);
    expect(menuFor('')).toBe(unknownRoleMenu);
    expect(unknownRoleMenu.map((e) => ('group' in e ? e.group : e.label))).toEqual(['Dashboard', 'MAC Check']);
  });
});

describe('the selected menu link', () => {
  it.each([
    ['/', '/'],
    ['/dashboard', '/'],
    ['/accounts', '/users'],
    ['/users', '/users'],
    ['/resellers/5/transactions', '/resellers'],
    ['/managers/edit/3', '/managers'],
    ['/managers/create', '/managers'],
    ['/user/transactions', '/transactions'],
    ['/promos', '/user-promos'],
    ['/no-such-page', ''],
  ])('%s selects %s', (pathname, key) => {
    expect(selectedKey(pathname, declarations)).toBe(key);
  });
});
