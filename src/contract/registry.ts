/**
 * The contract's tables composed with the resources that declare themselves (src/contract/resources,
 * one file each, listed by scripts/registry.mjs): the role matrix, the lists, the route table, the
 * labels and the menus that panel and API read.
 */
import { LIST_TABLE, type ListEntry, type SortKeyOf } from './lists';
import type { ResourceEntry } from './resource';
import { RESOURCE_ENTRIES } from './resources';
import { PERMISSION_TABLE, ROLES, type Role, isRole } from './roles';
import { LABEL_TABLE, MENU_TABLE, type MenuSpec, ROUTE_TABLE, type RouteSpec } from './routes';

type Entry = (typeof RESOURCE_ENTRIES)[number];
const entries: readonly ResourceEntry[] = RESOURCE_ENTRIES;

export const PERMISSIONS = {
  ...PERMISSION_TABLE,
  ...Object.fromEntries(entries.map((e) => [e.name, e.access])),
} as typeof PERMISSION_TABLE & { [E in Entry as E['name']]: E['access'] };

export type ResourceName = keyof typeof PERMISSIONS;
export type Permission = { resource: ResourceName; action: string };

/** The one access rule: may this role do this action on this resource? */
export function can(role: string | null | undefined, resource: string, action: string): boolean {
  const byAction = (PERMISSIONS as Record<string, Record<string, readonly Role[]>>)[resource];
  if (!byAction) return false;
  // Unknown roles get only the dashboard and MAC check (docs/domain.md#roles).
  if (!isRole(role)) return (resource === 'dashboard' || resource === 'mac-search') && action === 'list';
  return byAction[action]?.includes(role) ?? false;
}

export const LISTS = {
  ...LIST_TABLE,
  ...Object.fromEntries(entries.flatMap((e) => (e.list ? [[e.name, e.list]] : []))),
} as typeof LIST_TABLE & { [E in Entry as E['list'] extends ListEntry ? E['name'] : never]: E['list'] };

export type ListName = keyof typeof LISTS;

/** The sort keys of a panel resource's list; any key for a resource that is no list here. */
export type SortKeyFor<R extends string> = R extends ListName ? SortKeyOf<(typeof LISTS)[R]> : string;

/** How a resource without an entry is listed: the default dialect under its own name. */
const DEFAULT_LIST: ListEntry = {
  path: '',
  search: 'filter',
  sorts: [],
  defaultSort: 'id',
  sortStyle: 'sort-order',
  filters: [],
  filterParam: 'filter',
  plainFilters: [],
  shape: { kind: 'meta' },
};

export const listOf = (resource: string): ListEntry => (Object.hasOwn(LISTS, resource) ? LISTS[resource as ListName] : { ...DEFAULT_LIST, path: resource });

/** A declared resource's list route: open to the roles its row lets list. */
const routeOf = (e: ResourceEntry): RouteSpec => ({
  path: e.path,
  example: e.path,
  spec: ROLES.filter((role) => e.access.list?.includes(role)),
  access: [e.name as ResourceName, 'list'],
});

export const ROUTES: RouteSpec[] = [...ROUTE_TABLE, ...entries.map(routeOf)];

/** What each resource is called in the menus and as its pages' title. */
export const RESOURCE_LABELS: Partial<Record<ResourceName, string>> = { ...LABEL_TABLE, ...Object.fromEntries(entries.map((e) => [e.name, e.label])) };

/** A role's menu with the declared resources' links: at the end of their group (a new group when there is none), or of the menu. */
const withLinks = (role: Role, menu: MenuSpec): MenuSpec =>
  entries.reduce<MenuSpec>((out, e) => {
    const place = e.menu[role];
    const name = e.name as ResourceName;
    if (!place) return out;
    if (place === 'top') return [...out, name];
    const at = out.findIndex((entry) => typeof entry !== 'string' && entry.group === place);
    if (at < 0) return [...out, { group: place, children: [name] }];
    return out.map((entry, i) => (i === at && typeof entry !== 'string' ? { ...entry, children: [...entry.children, name] } : entry));
  }, menu);

/** The menu of each role in its order and grouping (docs/domain.md#routes-and-menus). */
export const MENUS = Object.fromEntries(ROLES.map((role) => [role, withLinks(role, MENU_TABLE[role])])) as Record<Role, MenuSpec>;

/** A menu's labels in display order, a group's label followed by its children's. */
export const menuLabelsOf = (menu: MenuSpec, labels: Partial<Record<string, string>> = RESOURCE_LABELS): string[] =>
  menu.flatMap((entry) => (typeof entry === 'string' ? [labels[entry] ?? entry] : [entry.group, ...entry.children.map((c) => labels[c] ?? c)]));
