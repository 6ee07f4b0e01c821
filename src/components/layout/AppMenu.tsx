/** The role's menu (spec 2) as an antd Menu; the selected item follows the current path. */
import { Menu } from 'antd';
import type { ItemType } from 'antd/es/menu/interface';
import { Link, useLocation } from 'react-router';
import type { MenuEntry } from '../routing';

function toItems(entries: MenuEntry[]): ItemType[] {
  return entries.map((entry) =>
    'group' in entry
      ? { key: `group:${entry.group}`, icon: entry.icon, label: entry.group, children: toItems(entry.children) }
      : { key: entry.path, icon: entry.icon, label: <Link to={entry.path}>{entry.label}</Link> },
  );
}

/** The menu path that best matches the location ('/resellers/5/transactions' selects '/resellers'). */
export function selectedKey(pathname: string, entries: MenuEntry[]): string {
  const paths = entries.flatMap((e) => ('group' in e ? e.children.map((c) => c.path) : [e.path]));
  if (pathname === '/' || pathname === '/dashboard') return '/';
  if (pathname === '/accounts') return '/users';
  return paths.filter((p) => p !== '/' && (pathname === p || pathname.startsWith(`${p}/`))).sort((a, b) => b.length - a.length)[0] ?? '';
}

export function AppMenu({ entries, onNavigate }: { entries: MenuEntry[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const groups = entries.filter((e) => 'group' in e).map((e) => `group:${(e as { group: string }).group}`);
  return (
    <Menu
      mode="inline"
      theme="dark"
      selectedKeys={[selectedKey(pathname, entries)]}
      defaultOpenKeys={groups}
      items={toItems(entries)}
      onClick={onNavigate}
      aria-label="Main menu"
    />
  );
}
