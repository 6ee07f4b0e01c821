import { type HttpError, useCustom, useParsed } from '@refinedev/core';
import { useState } from 'react';
import { type SelectFilter, listUrl } from '../../components/DataTable';
import { HIERARCHY_TREE, type HierarchyNode, type HierarchyTree, can, nameWithUsername } from '../../contract';
import { useCurrentUser } from '../../providers/identity';

/** GET /hierarchy/tree: the caller and its subtree, each branch's accounts counted in the window. */
export function useHierarchyTree(expiringDays: string, enabled = true) {
  const { result, query } = useCustom<{ data: HierarchyTree }, HttpError>({
    url: 'hierarchy/tree',
    method: 'get',
    config: { query: { expiring_days: expiringDays } },
    errorNotification: false,
    queryOptions: { retry: false, enabled },
  });
  return { tree: query.isError ? undefined : result?.data?.data, loading: query.isLoading && enabled, error: query.isError, refetch: query.refetch };
}

/** The accounts list's URL for a member's branch, optionally only those expiring in its window. */
export const branchAccountsUrl = (memberId: number, expiringDays?: string) =>
  listUrl('/users', [['branch', memberId], ...(expiringDays ? [['expiry', expiringDays] as const] : [])]);

/** A member's transactions page; the caller's own is the Transactions list. */
export const memberTransactionsUrl = (node: Pick<HierarchyNode, 'id' | 'role' | 'parent_id'>) =>
  node.parent_id === null ? '/transactions' : `/${node.role}s/${node.id}/transactions`;

/**
 * The accounts list's Branch filter (the roles with members below them): every member below the
 * caller, read from the tree when the filter is first opened or the URL already names a branch, so
 * the list's first load waits for nothing.
 */
export function useBranchFilter(): SelectFilter | null {
  const { role } = useCurrentUser();
  const { params } = useParsed();
  const inUrl = JSON.stringify(params?.filters ?? []).includes('"branch"');
  const [opened, setOpened] = useState(false);
  const allowed = can(role, 'hierarchy', 'list');
  const { tree, loading } = useHierarchyTree('7', allowed && (opened || inUrl));
  if (!allowed) return null;
  return {
    field: 'branch',
    label: HIERARCHY_TREE.branch,
    showSearch: true,
    loading,
    onOpen: () => setOpened(true),
    options: (tree?.nodes ?? []).filter((n) => n.parent_id !== null).map((n) => ({ label: `${nameWithUsername(n.name, n.username)}, ${n.role}`, value: n.id })),
  };
}
