/** The role's menu (src/resources/menus.tsx) as an antd Menu; the selected item follows the current path. */
import { Menu } from 'antd';
import type { ItemType } from 'antd/es/menu/interface';
import { useMemo } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import type { MenuEntry, PanelResource } from '../routing';

function toItems(entries: MenuEntry[]): ItemType[] {
  return entries.map((entry) =>
    'group' in entry
      ? { key: `group:${entry.group}`, icon: entry.icon, label: entry.group, children: toItems(entry.children) }
      : { key: entry.path, icon: entry.icon, label: <Link to={entry.path}>{entry.label}</Link> },
  );
}

/**
 * The menu link of the resource whose route is open: any route a resource declares ('/accounts',
 * '/resellers/5/transactions') selects that resource's list link.
 */
export function selectedKey(pathname: string, resources: readonly PanelResource[]): string {
  const owner = resources.find((r) =>
    [r.list, r.create, r.edit, r.show, ...(r.routes ?? [])].some((route) => route && matchPath({ path: route.path, end: true }, pathname)),
  );
  return owner?.list?.path ?? '';
}

export function AppMenu({ entries, resources, onNavigate }: { entries: MenuEntry[]; resources: readonly PanelResource[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const groups = entries.filter((e) => 'group' in e).map((e) => `group:${(e as { group: string }).group}`);
  // The same items while the role's menu is the same: new ones render every item again.
  const items = useMemo(() => toItems(entries), [entries]);
  return (
    <Menu
      mode="inline"
      theme="dark"
      selectedKeys={[selectedKey(pathname, resources)]}
      defaultOpenKeys={groups}
      items={items}
      onClick={onNavigate}
      aria-label="Main menu"
      // antd wraps each item in a tooltip that only a collapsed menu shows; this one never collapses
      // (the phone layout has a drawer instead), and a tooltip per item was a good part of its first render.
      _internalDisableMenuItemTitleTooltip
    />
  );
}
