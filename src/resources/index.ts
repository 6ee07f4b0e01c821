import { ticketCategories } from './ticketCategories';
import type { PanelResource } from './types';
import { servers } from './servers';
import { themes } from './themes';
import { userPromos } from './userPromos';
import { globalDiscounts } from './globalDiscounts';
import { systemSettings } from './systemSettings';
import { creditLevelsResource } from './creditLevels';
import { creditOptionsSettings } from './creditOptionsSettings';
import { managers } from './managers';
import { resellers } from './resellers';
import { dealers } from './dealers';
import { transactions } from './transactions';
import { accounts } from './accounts';
import { macSearch, userSearch } from './macSearch';

/** Every entity of the panel, declared once. */
export const panelResources: PanelResource[] = [ticketCategories];
// Admin configuration (issue 5).
panelResources.push(servers, themes, userPromos, globalDiscounts, systemSettings, creditLevelsResource, creditOptionsSettings);
// End-user accounts, MAC check, user search (issue 4).
panelResources.push(accounts, macSearch, userSearch);
// Hierarchy and credits (issue 3).
panelResources.push(managers, resellers, dealers, transactions);

export type { PanelResource, PanelRoute } from './types';
