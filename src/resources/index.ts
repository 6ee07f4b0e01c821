import { ticketCategories } from './ticketCategories';
import type { PanelResource } from './types';
import { servers } from './servers';
import { themes } from './themes';
import { userPromos } from './userPromos';
import { globalDiscounts } from './globalDiscounts';
import { systemSettings } from './systemSettings';
import { creditLevelsResource } from './creditLevels';
import { creditOptionsSettings } from './creditOptionsSettings';

/** Every entity of the panel, declared once. */
export const panelResources: PanelResource[] = [ticketCategories];
// Admin configuration (issue 5).
panelResources.push(servers, themes, userPromos, globalDiscounts, systemSettings, creditLevelsResource, creditOptionsSettings);

export type { PanelResource, PanelRoute } from './types';
