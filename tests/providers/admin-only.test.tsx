import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS } from '../../src/contract';

const current = { role: 'admin' as string | null };
vi.mock('../../src/hooks/useRole', () => ({ useCurrentUser: () => ({ role: current.role }) }));

const { AdminOnly } = await import('../../src/components/AdminOnly');

describe('AdminOnly (the in-page role check of spec 6)', () => {
  beforeEach(() => {
    current.role = 'admin';
  });

  it('shows the page to an admin', () => {
    render(<AdminOnly>servers table</AdminOnly>);
    expect(screen.getByText('servers table')).toBeTruthy();
    expect(screen.queryByText(ACCESS.denied)).toBeNull();
  });

  for (const role of ['manager', 'reseller', 'dealer']) {
    it(`refuses a ${role} with Access Denied, the admin note and the current role`, () => {
      current.role = role;
      render(<AdminOnly>servers table</AdminOnly>);
      expect(screen.queryByText('servers table')).toBeNull();
      expect(screen.getByText(ACCESS.denied)).toBeTruthy();
      expect(screen.getByText(ACCESS.adminOnly)).toBeTruthy();
      expect(screen.getByText(`${ACCESS.currentRole} ${role}`)).toBeTruthy();
    });
  }

  it('refuses a session without a role', () => {
    current.role = null;
    render(<AdminOnly>servers table</AdminOnly>);
    expect(screen.getByText(`${ACCESS.currentRole} unknown`)).toBeTruthy();
  });
});
