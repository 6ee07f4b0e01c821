/**
 * The menu of each role in its order and grouping (docs/domain.md#routes-and-menus). Entries name resources; paths,
 * labels and icons come from their declarations.
 */
import { AppstoreOutlined, CustomerServiceOutlined, SearchOutlined, TeamOutlined } from '@ant-design/icons';
import type { MenuLayout } from '../components/routing';
import type { Role } from '../contract';

export const MENU_LAYOUTS: Record<Role, MenuLayout> = {
  admin: [
    'dashboard',
    { group: 'Accounts', icon: <TeamOutlined />, children: ['managers', 'resellers', 'dealers', 'accounts'] },
    'transactions',
    'mac-search',
    { group: 'Tickets', icon: <CustomerServiceOutlined />, children: ['tickets', 'ticket-categories'] },
    { group: 'Settings', icon: <AppstoreOutlined />, children: ['global-discounts', 'user-promos', 'themes', 'announcements', 'servers', 'settings'] },
  ],
  manager: ['dashboard', 'user-announcements', 'resellers', 'dealers', 'accounts', 'transactions', 'tickets', 'mac-search'],
  reseller: ['dashboard', 'user-announcements', 'dealers', 'accounts', 'mac-search', { group: 'Search', icon: <SearchOutlined />, children: ['user-search'] }, 'transactions', 'tickets'],
  dealer: ['dashboard', 'user-announcements', 'accounts', 'transactions', 'tickets', 'mac-search'],
};

/** A signed-in user of an unknown role: only Dashboard and MAC Check (docs/domain.md#roles). */
export const UNKNOWN_ROLE_MENU: MenuLayout = ['dashboard', 'mac-search'];
