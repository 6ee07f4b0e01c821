/**
 * A resource that declares itself: one file in src/contract/resources/ whose default export is
 * `defineResource({...})`, beside its schemas. The registry (registry.ts) composes its role matrix
 * row, list, route row, label and menu links into PERMISSIONS, LISTS, ROUTES, RESOURCE_LABELS and
 * MENUS, so no table is edited by hand for it.
 */
import { type ListEntry, type ListInput, list } from './lists';
import type { Role } from './roles';

export interface ResourceEntry<N extends string = string, L extends ListEntry | undefined = ListEntry | undefined> {
  /** The role matrix's resource name, the API path (/api/v1/<name>) and the panel's list path. */
  name: N;
  /** The panel's list path: /<name>. */
  path: `/${N}`;
  /** What the menus and its pages' titles call it. */
  label: string;
  /** Its row of the role matrix: who may do each action (`adminOnly(...CRUD)`). */
  access: Readonly<Record<string, readonly Role[]>>;
  /** Its list's wire facts, read by the API's list code and the panel's data provider. */
  list: L;
  /** The menus it is a link in: for each role, the group it ends (its label) or 'top' for the menu's end. */
  menu: Partial<Record<Role, string>>;
}

/** A list as `list()` takes it, under the resource's own path unless given. */
type ResourceListInput<S extends string, F extends string> = Omit<ListInput<S, F>, 'path'> & { path?: string };

/** The literal name, sort keys and filters are kept, so a column sorting by an undeclared key does not compile. */
export function defineResource<const N extends string, const S extends string = never, const F extends string = never>(entry: {
  name: N;
  label: string;
  access: Readonly<Record<string, readonly Role[]>>;
  list?: ResourceListInput<S, F>;
  menu?: Partial<Record<Role, string>>;
}): ResourceEntry<N, [S] extends [never] ? undefined : ListEntry<S, F>> {
  return {
    name: entry.name,
    path: `/${entry.name}`,
    label: entry.label,
    access: entry.access,
    list: (entry.list ? list({ path: entry.name, ...entry.list }) : undefined) as [S] extends [never] ? undefined : ListEntry<S, F>,
    menu: entry.menu ?? {},
  };
}
