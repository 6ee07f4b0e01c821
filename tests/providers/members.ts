/** A manager, reseller or dealer row as the API lists it, for the panel's tests: a dealer unless `over` says otherwise. */
import type { HierarchyUser } from '../../src/contract';

export const member = (over: Partial<HierarchyUser>): HierarchyUser => ({
  id: 1,
  name: 'Someone',
  username: 'someone',
  phone: null,
  role: 'dealer',
  credits: 0,
  bonus_credits: 0,
  paid_credits: 0,
  two_factor: false,
  is_active: true,
  status: 'active',
  server_id: 1,
  server: { id: 1, name: 'Main' },
  parent_id: null,
  parent: null,
  manager: null,
  reseller: null,
  total_children: 0,
  total_accounts: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  blocked_by: null,
  ...over,
});
