import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';

/** A route of the panel and the permission it needs (null: any signed-in user). */
export interface PanelRoute {
  path: string;
  element: ReactNode;
  access: readonly [resource: string, action: string] | null;
}

/** One entity of the panel: its Refine resource and its routes. */
export interface PanelResource {
  resource: ResourceProps;
  routes: PanelRoute[];
}
