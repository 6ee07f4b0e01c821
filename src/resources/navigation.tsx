/**
 * The menu of each role, exactly as spec section 2 lists it (order and grouping differ per role).
 * An unknown role gets only the Dashboard and MAC Check.
 */
import {
  AppstoreOutlined,
  BgColorsOutlined,
  CloudServerOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  GiftOutlined,
  NotificationOutlined,
  PercentageOutlined,
  SearchOutlined,
  SettingOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { type Role, isRole } from '../contract';

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

const link = {
  dashboard: { path: '/', label: 'Dashboard', icon: <DashboardOutlined /> },
  managers: { path: '/managers', label: 'Managers', icon: <TeamOutlined /> },
  resellers: { path: '/resellers', label: 'Resellers', icon: <TeamOutlined /> },
  dealers: { path: '/dealers', label: 'Dealers', icon: <TeamOutlined /> },
  users: { path: '/users', label: 'Users', icon: <UserOutlined /> },
  transactions: { path: '/transactions', label: 'Transactions', icon: <SwapOutlined /> },
  macSearch: { path: '/mac-search', label: 'MAC Check', icon: <WifiOutlined /> },
  tickets: { path: '/tickets', label: 'Tickets', icon: <CustomerServiceOutlined /> },
  ticketCategories: { path: '/ticket-categories', label: 'Ticket Categories', icon: <TagsOutlined /> },
  globalDiscounts: { path: '/global-discounts', label: 'User Promo', icon: <PercentageOutlined /> },
  userPromos: { path: '/user-promos', label: 'Dealer Promo', icon: <GiftOutlined /> },
  themes: { path: '/themes', label: 'Themes', icon: <BgColorsOutlined /> },
  announcements: { path: '/announcements', label: 'Announcements', icon: <NotificationOutlined /> },
  servers: { path: '/servers', label: 'Servers', icon: <CloudServerOutlined /> },
  settings: { path: '/settings', label: 'System Settings', icon: <SettingOutlined /> },
  userAnnouncements: { path: '/user-announcements', label: 'Announcements', icon: <NotificationOutlined /> },
  userSearch: { path: '/user-search', label: 'User Search', icon: <SearchOutlined /> },
} satisfies Record<string, MenuLink>;

export const MENUS: Record<Role, MenuEntry[]> = {
  admin: [
    link.dashboard,
    { group: 'Accounts', icon: <TeamOutlined />, children: [link.managers, link.resellers, link.dealers, link.users] },
    link.transactions,
    link.macSearch,
    { group: 'Tickets', icon: <CustomerServiceOutlined />, children: [link.tickets, link.ticketCategories] },
    {
      group: 'Settings',
      icon: <AppstoreOutlined />,
      children: [link.globalDiscounts, link.userPromos, link.themes, link.announcements, link.servers, link.settings],
    },
  ],
  manager: [link.dashboard, link.userAnnouncements, link.resellers, link.dealers, link.users, link.transactions, link.tickets, link.macSearch],
  reseller: [
    link.dashboard,
    link.userAnnouncements,
    link.dealers,
    link.users,
    link.macSearch,
    { group: 'Search', icon: <SearchOutlined />, children: [link.userSearch] },
    link.transactions,
    link.tickets,
  ],
  dealer: [link.dashboard, link.userAnnouncements, link.users, link.transactions, link.tickets, link.macSearch],
};

export const UNKNOWN_ROLE_MENU: MenuEntry[] = [link.dashboard, link.macSearch];

export const menuFor = (role: string | null | undefined): MenuEntry[] => (isRole(role) ? MENUS[role] : UNKNOWN_ROLE_MENU);
