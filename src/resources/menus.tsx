/**
 * The menus of each role are the contract's (src/contract/routes.ts); the panel adds the groups'
 * icons. Paths, labels and icons of the links come from the resources' declarations.
 */
import { AppstoreOutlined, CustomerServiceOutlined, SearchOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MenuLayout } from '../components/routing';
import { MENUS, type MenuSpec, type Role, UNKNOWN_ROLE_MENU as UNKNOWN_ROLE_MENU_SPEC } from '../contract';

const GROUP_ICONS: Record<string, ReactNode> = {
  Accounts: <TeamOutlined />,
  Tickets: <CustomerServiceOutlined />,
  Settings: <AppstoreOutlined />,
  Search: <SearchOutlined />,
};

const withIcons = (menu: MenuSpec): MenuLayout => menu.map((entry) => (typeof entry === 'string' ? entry : { ...entry, icon: GROUP_ICONS[entry.group] }));

export const MENU_LAYOUTS = Object.fromEntries(Object.entries(MENUS).map(([role, menu]) => [role, withIcons(menu)])) as Record<Role, MenuLayout>;

/** A signed-in user of an unknown role: only Dashboard and MAC Check (docs/domain.md#roles). */
export const UNKNOWN_ROLE_MENU: MenuLayout = withIcons(UNKNOWN_ROLE_MENU_SPEC);
