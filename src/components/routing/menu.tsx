/**
 * A role's menu: the order and grouping of src/resources/menus.tsx, with each link's path, label and icon taken
 * from its resource's declaration. A resource that is not declared has no link.
 */
import type { ReactNode } from 'react';
import { type PanelResource, labelOf } from './declarations';

export interface MenuLink {
  path: string;
  label: string;
  icon: ReactNode;
}
export interface MenuGroup {
  group: string;
  icon: ReactNode;
  children: MenuLink[];
}
export type MenuEntry = MenuLink | MenuGroup;

/** A layout names resources; a group names its label, icon and the resources under it. */
export type MenuLayout = Array<string | { group: string; icon: ReactNode; children: string[] }>;

export function buildMenu(layout: MenuLayout, resources: readonly PanelResource[]): MenuEntry[] {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const link = (name: string): MenuLink[] => {
    const r = byName.get(name);
    return r?.list ? [{ path: r.list.path, label: labelOf(r), icon: r.icon }] : [];
  };
  return layout.flatMap((entry): MenuEntry[] => {
    if (typeof entry === 'string') return link(entry);
    const children = entry.children.flatMap(link);
    return children.length ? [{ group: entry.group, icon: entry.icon, children }] : [];
  });
}
