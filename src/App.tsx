/** The panel: providers, then routes and menus derived from the resource and page declarations. */
import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider, Typography } from 'antd';
import { Suspense, useMemo } from 'react';
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { StatusPopupProvider } from './components/feedback';
import { AppLayout } from './components/layout/AppLayout';
import { PageColours } from './components/layout/PageColours';
import { PageHeadingProvider } from './components/layout/PageHeading';
import { SignedIn } from './components/layout/SignedIn';
import { documentTitle, pageTitleFor } from './components/layout/pageTitle';
import { PageLoading, RouteGuard } from './components/routing';
import { GENERAL, TOAST_MS, TWO_FACTOR_ENROL_PATH } from './contract';
import { ViewAsBanner } from './features/sessions/ViewAsBanner';
import { declarations, menuFor, panelRoutes, paletteSearchesFor, refineResources } from './navigation';
import { LoginPage, NotFoundPage, TwoFactorEnrolPage, UnauthorizedPage } from './pages';
import { accessControlProvider } from './providers/accessControlProvider';
import { AppConfigProvider, useAppConfig } from './providers/appConfig';
import { authProvider } from './providers/authProvider';
import { useDarkScheme } from './providers/colorScheme';
import { dataProvider } from './providers/dataProvider';
import { useCurrentUser } from './providers/identity';
import { useNotificationProvider } from './providers/notificationProvider';
import { REDUCED_MOTION, useMediaQuery } from './providers/mediaQuery';
import { createQueryClient } from './providers/queryClient';
import { isDarkTheme, themeConfig } from './theme';

/**
 * What an empty table says, where its screen says nothing of its own: antd's default is written in
 * the disabled text colour, which no theme makes readable.
 */
const renderEmpty = (component?: string) => (component === 'Table' ? <Typography.Text type="secondary">{GENERAL.noData}</Typography.Text> : undefined);

/** The site theme (the admin's colours) in the user's light or dark scheme. */
function Themed({ children }: { children: React.ReactNode }) {
  const { config } = useAppConfig();
  const siteDark = isDarkTheme(config.theme);
  const dark = useDarkScheme(siteDark);
  // Motion off for a device that asks for less of it: antd's dialogs, menus and messages then appear and
  // go at once (a click on a dialog still zooming in lands where the pointer aimed).
  const reducedMotion = useMediaQuery(REDUCED_MOTION);
  const antTheme = useMemo(() => {
    const themed = themeConfig(config.theme, dark);
    return reducedMotion ? { ...themed, token: { ...themed.token, motion: false } } : themed;
  }, [config.theme, dark, reducedMotion]);
  return (
    <ConfigProvider theme={antTheme} renderEmpty={renderEmpty}>
      <PageColours dark={dark} siteDark={siteDark} />
      {/* One toast at a time (docs/domain.md#toasts), at the bottom: nothing there changes under it (the header's credits do). */}
      <AntdApp notification={{ maxCount: 1, duration: TOAST_MS.default / 1000, placement: 'bottomRight' }} message={{ maxCount: 1 }}>
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

/** Browser tab titles: '<Page> · <panel name>'. */
function PanelTitle() {
  const { role } = useCurrentUser();
  // The handler runs when the location changes; a new role (sign-in, reload) runs it again.
  return <DocumentTitleHandler key={role ?? ''} handler={({ pathname }) => documentTitle(pageTitleFor(pathname ?? '/', declarations), role)} />;
}

/** Pages outside the signed-in frame, each under its h1. */
function PublicFrame() {
  const { pathname } = useLocation();
  return (
    <PageHeadingProvider title={pageTitleFor(pathname, declarations)}>
      <Outlet />
    </PageHeadingProvider>
  );
}

/**
 * A user whose role requires two-factor sign-in and who has none sees only the enrolment screen: the
 * API refuses it everything else.
 */
function EnrolFirst({ children }: { children: React.ReactNode }) {
  const { user } = useCurrentUser();
  return user?.two_factor_enrol ? <Navigate to={TWO_FACTOR_ENROL_PATH} replace /> : <>{children}</>;
}

const queryClient = createQueryClient(dataProvider);

function PanelRoutes() {
  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      routerProvider={routerProvider}
      notificationProvider={useNotificationProvider}
      resources={refineResources}
      options={{ syncWithLocation: false, warnWhenUnsavedChanges: false, disableTelemetry: true, reactQuery: { clientConfig: queryClient } }}
    >
      <StatusPopupProvider>
        <Suspense fallback={<PageLoading />}>
          <Routes>
            <Route
              element={
                <SignedIn fallback={<CatchAllNavigate to="/login" />}>
                  <EnrolFirst>
                    <AppLayout menuFor={menuFor} resources={declarations} searchesFor={paletteSearchesFor} banner={<ViewAsBanner />} />
                  </EnrolFirst>
                </SignedIn>
              }
            >
              {panelRoutes.map((route) => (
                <Route key={route.path} path={route.path} element={<RouteGuard route={route} />} />
              ))}
            </Route>
            {/* Access Denied: in the panel's frame when signed in, else beside the sign-in page. */}
            <Route
              element={
                <SignedIn fallback={<PublicFrame />}>
                  <AppLayout menuFor={menuFor} resources={declarations} searchesFor={paletteSearchesFor} banner={<ViewAsBanner />} />
                </SignedIn>
              }
            >
              <Route path="/unauthorized" element={<UnauthorizedPage />} />
            </Route>
            <Route element={<PublicFrame />}>
              <Route
                path={TWO_FACTOR_ENROL_PATH}
                element={
                  <SignedIn fallback={<CatchAllNavigate to="/login" />}>
                    <TwoFactorEnrolPage />
                  </SignedIn>
                }
              />
              <Route
                element={
                  <Authenticated key="auth-pages" fallback={<Outlet />}>
                    <Navigate to="/" replace />
                  </Authenticated>
                }
              >
                <Route path="/login" element={<LoginPage />} />
              </Route>
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </Suspense>
      </StatusPopupProvider>
      <PanelTitle />
    </Refine>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppConfigProvider>
        <Themed>
          <PanelRoutes />
        </Themed>
      </AppConfigProvider>
    </BrowserRouter>
  );
}
