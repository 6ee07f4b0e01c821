export { type FirstCall, type GuardedRoute, type LazyPage, type PanelResource, type PanelRoute, labelOf, lazyPage, refineResourcesOf, routesOf } from './declarations';
export { PageLoading, RouteGuard } from './RouteGuard';
export { type MenuEntry, type MenuGroup, type MenuLayout, type MenuLink, buildMenu } from './menu';
export { PageAccess } from './PageAccess';
