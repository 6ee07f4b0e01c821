import type { Role } from '../../src/contract';

/**
 * The menu labels of each role in display order (spec 2), groups followed by their children. The
 * spec's Tickets and Announcements links are not there while those screens are not declared: a menu
 * entry never opens a 404.
 */
export function menuLabels(role: Role): string[] {
  const menus: Record<Role, string[]> = {
    admin: ['Dashboard', 'Accounts', 'Managers', 'Resellers', 'Dealers', 'Users', 'Transactions', 'MAC Check', 'Tickets', 'Ticket Categories', 'Settings', 'User Promo', 'Dealer Promo', 'Themes', 'Servers', 'System Settings'],
    manager: ['Dashboard', 'Resellers', 'Dealers', 'Users', 'Transactions', 'MAC Check'],
    reseller: ['Dashboard', 'Dealers', 'Users', 'MAC Check', 'Search', 'User Search', 'Transactions'],
    dealer: ['Dashboard', 'Users', 'Transactions', 'MAC Check'],
  };
  return menus[role];
}
