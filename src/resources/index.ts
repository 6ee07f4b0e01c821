/** Every entity of the panel, declared once (src/components/routing says how a declaration reads). */
import type { PanelResource } from '../components/routing';
import { accounts } from './accounts';
import { analytics } from './analytics';
import { announcements } from './announcements';
import { auditLogs } from './auditLogs';
import { creditLevels } from './creditLevels';
import { creditOptionsSettings } from './creditOptionsSettings';
import { dealers } from './dealers';
import { globalDiscounts } from './globalDiscounts';
import { macSearch } from './macSearch';
import { managers } from './managers';
import { resellers } from './resellers';
import { servers } from './servers';
import { systemSettings } from './systemSettings';
import { themes } from './themes';
import { ticketCategories } from './ticketCategories';
import { tickets } from './tickets';
import { transactions } from './transactions';
import { userPromos } from './userPromos';
import { userAnnouncements } from './userAnnouncements';
import { userSearch } from './userSearch';

export const panelResources: PanelResource[] = [
  managers,
  resellers,
  dealers,
  accounts,
  transactions,
  macSearch,
  userSearch,
  tickets,
  ticketCategories,
  globalDiscounts,
  userPromos,
  themes,
  announcements,
  userAnnouncements,
  servers,
  systemSettings,
  creditLevels,
  creditOptionsSettings,
  auditLogs,
  analytics,
];

export { MENU_LAYOUTS, UNKNOWN_ROLE_MENU } from './menus';
