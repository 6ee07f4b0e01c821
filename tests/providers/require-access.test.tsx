/**
 * The route guard the panel wraps every resource route in: for every route of spec section 2 and
 * every role, the page renders or the user lands on /unauthorized, exactly as the access matrix says.
 */
import { type AuthProvider, Refine } from '@refinedev/core';
import { act, render, waitFor } from '@testing-library/react';
import { MemoryRouter, type NavigateFunction, Route, Routes, useNavigate } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/contract';
import { RequireAccess } from '../../src/components/RequireAccess';
import { SPEC_ROUTES, UNKNOWN_ROLE, contractRoles } from './routeTable';

const routerPath = (specPath: string) => specPath.replace(/\{(\w+)\}/g, ':$1');

function authFor(role: string): AuthProvider {
  return {
    login: async () => ({ success: true }),
    logout: async () => ({ success: true }),
    check: async () => ({ authenticated: true }),
    onError: async () => ({}),
    getIdentity: async () => ({ id: 1, name: 'Test', username: 'test', role }),
  };
}

let navigate: NavigateFunction;
function CaptureNavigate() {
  navigate = useNavigate();
  return null;
}

const guarded = SPEC_ROUTES.filter((r) => r.spec !== 'public');

beforeEach(() => localStorage.clear());

describe.each([...ROLES, UNKNOWN_ROLE])('role %s', { timeout: 30_000 }, (role) => {
  it('opens exactly the routes the matrix allows and is sent to /unauthorized elsewhere', async () => {
    localStorage.setItem('userRole', role);
    const view = render(
      <MemoryRouter initialEntries={['/start']}>
        <Refine authProvider={authFor(role)} options={{ disableTelemetry: true }}>
          <CaptureNavigate />
          <Routes>
            <Route path="/start" element={<div>start</div>} />
            <Route path="/unauthorized" element={<div>denied</div>} />
            {guarded.map((route) => (
              <Route
                key={route.path}
                path={routerPath(route.path)}
                element={
                  <RequireAccess access={route.access}>
                    <div>page {route.path}</div>
                  </RequireAccess>
                }
              />
            ))}
          </Routes>
        </Refine>
      </MemoryRouter>,
    );
    await waitFor(() => expect(view.container.textContent).toBe('start'));

    for (const route of guarded) {
      const roles = contractRoles(route);
      const allowed = role === UNKNOWN_ROLE ? route.unknownRole === true : roles !== 'public' && (roles as readonly string[]).includes(role);
      await act(async () => navigate(route.example));
      await waitFor(() => expect(view.container.textContent, `${role} on ${route.example}`).toBe(allowed ? `page ${route.path}` : 'denied'));
    }
  });
});
