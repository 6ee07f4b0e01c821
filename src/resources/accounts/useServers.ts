/** The servers every role may pick (GET /servers/public) and the caller's branch server. */
import { useCustom } from '@refinedev/core';
import type { ServerOption } from '../../contract';

const quiet = { errorNotification: false as const, queryOptions: { staleTime: 60_000, retry: false } };

export function useServerOptions() {
  const servers = useCustom<{ data: ServerOption[] }>({ url: 'servers/public', method: 'get', ...quiet });
  const branch = useCustom<{ data: ServerOption | null }>({ url: 'user/manager-server', method: 'get', ...quiet });
  const list = servers.result.data?.data ?? [];
  return {
    servers: list,
    options: list.map((s) => ({ label: s.status === 'inactive' ? `${s.name} (inactive)` : s.name, value: s.id })),
    /** A non-admin's accounts live on its manager's server; null for admin or an unassigned branch. */
    branchServer: branch.result.data?.data ?? null,
    loading: servers.query.isLoading || branch.query.isLoading,
  };
}
