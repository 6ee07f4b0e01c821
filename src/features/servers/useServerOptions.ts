import { useList } from '@refinedev/core';
import type { ServerOption } from '../../contract';

/**
 * The servers as select options (GET /servers/public, which every role may read), for every server
 * filter and picker (admin configuration, managers, accounts, MAC check); inactive ones are marked.
 */
export function useServerOptions() {
  const { result, query } = useList<ServerOption>({
    resource: 'servers',
    meta: { path: 'servers/public' },
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  return {
    options: (result.data ?? []).map((s) => ({ label: s.status === 'active' ? s.name : `${s.name} (inactive)`, value: s.id })),
    loading: query.isLoading,
    error: query.error,
  };
}
