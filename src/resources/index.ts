import { ticketCategories } from './ticketCategories';
import type { PanelResource } from './types';

/** Every entity of the panel, declared once. */
export const panelResources: PanelResource[] = [ticketCategories];

export type { PanelResource, PanelRoute } from './types';
