/**
 * How the panel declares what it shows: each entity once (name, label, icon, routes with lazily loaded
 * pages, the permission each route needs). Routes, Refine's resources, the route guard and the menus
 * are all derived from these declarations.
 */
import type { ResourceProps } from '@refinedev/core';
import type { ComponentType, ReactNode } from 'react';
import { RESOURCE_LABELS } from '../../contract';
import { type Preloadable, lazyComponent } from '../lazyComponent';

export type LazyPage = Preloadable<ComponentType<any>>;

/**
 * A page module loaded when its route is first opened, or earlier through `preload` (the page a
 * reload lands on starts loading beside the session check); `name` is the component it exports.
 */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyPage {
  return lazyComponent(load, name);
}

export interface PanelRoute {
  path: string;
  page: LazyPage;
  /** Props the page gets on this route. */
  props?: Record<string, unknown>;
  /** The page's title (browser tab, heading) when it is not the resource's label: 'Edit Dealer'. */
  title?: string;
  /** The [resource, action] of the role matrix this route needs; defaults to the resource and the route's kind. */
  access?: readonly [resource: string, action: string];
  /** What the page asks the API for as it opens: requested with its module when the browser opens this route. */
  firstCalls?: readonly FirstCall[];
}

export type FirstCall =
  /** A resource's list as the data table first asks for it (first page, default size, no search, filter or sort). */
  | { list: string }
  /** A whole list from a path of its own (useList with `meta.path`, no paging): 'servers/public'. */
  | { list: string; path: string; unpaged: true }
  /** A GET without a query through useCustom: 'user/manager-server'. */
  | { get: string };

export interface PanelResource {
  /** The role matrix's resource name and the API path. */
  name: string;
  /** Its label in the contract (RESOURCE_LABELS) unless given. */
  label?: string;
  icon?: ReactNode;
  list?: PanelRoute;
  create?: PanelRoute;
  edit?: PanelRoute;
  show?: PanelRoute;
  /** Further routes: aliases of the list, a record's transactions. Their access defaults to list. */
  routes?: PanelRoute[];
}

export interface GuardedRoute extends PanelRoute {
  access: readonly [string, string];
}

const KINDS = ['list', 'create', 'edit', 'show'] as const;

/** What a resource is called in menus and page titles. */
export const labelOf = (r: PanelResource): string => r.label ?? (RESOURCE_LABELS as Record<string, string>)[r.name] ?? r.name;

/** Every route of the declarations with the permission it needs. */
export function routesOf(resources: readonly PanelResource[]): GuardedRoute[] {
  return resources.flatMap((r) => [
    ...KINDS.flatMap((kind) => (r[kind] ? [{ ...r[kind]!, access: r[kind]!.access ?? ([r.name, kind] as const) }] : [])),
    ...(r.routes ?? []).map((route) => ({ ...route, access: route.access ?? ([r.name, 'list'] as const) })),
  ]);
}

/** The declarations as Refine resources (paths and meta only: Refine's routes are ours). */
export const refineResourcesOf = (resources: readonly PanelResource[]): ResourceProps[] =>
  resources.map((r) => ({
    name: r.name,
    list: r.list?.path,
    create: r.create?.path,
    edit: r.edit?.path,
    show: r.show?.path,
    meta: { label: labelOf(r), icon: r.icon },
  }));
