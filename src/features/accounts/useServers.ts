/** The account screens' servers: the options every role may pick (shared with the other forms) and the caller's branch server. */
import { useCustom } from '@refinedev/core';
import type { ServerOption } from '../../contract';
import { useServerOptions } from '../servers';

export function useAccountServers() {
  const servers = useServerOptions();
  const branch = useCustom<{ data: ServerOption | null }>({
    url: 'user/manager-server',
    method: 'get',
    errorNotification: false,
    queryOptions: { staleTime: 60_000, retry: false },
  });
  return {
    options: servers.options,
    /** A non-admin's accounts live on its manager's server; null for admin or an unassigned branch. */
    branchServer: branch.result.data?.data ?? null,
    loading: servers.loading || branch.query.isLoading,
  };
}
