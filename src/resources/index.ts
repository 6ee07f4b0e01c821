import { ticketCategories } from './ticketCategories';
import type { PanelResource } from './types';
import { servers } from './servers';
import { themes } from './themes';
import { userPromos } from './userPromos';
import { globalDiscounts } from './globalDiscounts';
import { systemSettings } from './systemSettings';
import { creditLevelsResource } from './creditLevels';
import { creditOptionsSettings } from './creditOptionsSettings';
import { accounts } from './accounts';
import { macSearch, userSearch } from './macSearch';

/** Every entity of the panel, declared once. */
export const panelResources: PanelResource[] = [ticketCategories];
// Admin configuration (issue 5).
panelResources.push(servers, themes, userPromos, globalDiscounts, systemSettings, creditLevelsResource, creditOptionsSettings);
// End-user accounts, MAC check, user search (issue 4).
panelResources.push(accounts, macSearch, userSearch);

export type { PanelResource, PanelRoute } from './types';
