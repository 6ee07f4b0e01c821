/**
 * The panel's query client: Refine's defaults, and the first screen's queries answered on their first
 * render where the answer is already at hand:
 *
 * - The auth and access checks, once the signed-in user is known. They need no request of their own
 *   (the identity is loaded before the first render, and the access rules are the contract's role
 *   matrix), but an answer that arrives a tick later renders the frame and the page (and every button
 *   behind a check) once more before a table can show its rows. Refine keys them ['auth', action] and
 *   ['access', resource, action, ...]; the checks still run, and agree.
 * - The lists and GETs the entry module prefetched for the opened page (the data provider's
 *   prefetchList/prefetchGet) whose answers arrived before the page first rendered: the query starts
 *   with the answer, fresh while a prefetched answer may wait for its page, instead of showing its
 *   loading state and rendering the page again a task later with the rows.
 */
import { type Query, type QueryKey, QueryClient, keepPreviousData, notifyManager } from '@tanstack/react-query';
import { PERMISSIONS } from '../contract';
import { accessAnswer } from './accessControlProvider';
import { type Arrived, PREFETCHED_MS, type PanelDataProvider } from './dataProvider';
import { identity } from './identity';

// Answers that settle in the same turn (the first screen's calls, requested together) notify their
// observers in one task, so React renders the page once for all of them: TanStack's default gives each
// notification a setTimeout of its own, and each rendered the page and its table again.
let due: Array<() => void> = [];
notifyManager.setScheduler((notify) => {
  due.push(notify);
  if (due.length > 1) return;
  setTimeout(() => {
    const now = due;
    due = [];
    for (const run of now) {
      try {
        run();
      } catch (error) {
        // As its own task would have: reported, and the others still notified.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }, 0);
});

type Prefetched = Pick<PanelDataProvider, 'arrivedList' | 'arrivedGet'>;

/**
 * The arrived prefetched answer of a Refine data query, by its key: ['data', provider, resource,
 * 'list', { ...meta, filters, pagination, sorters }] (Refine keeps the pagination of server-paged
 * lists only: the others are whole lists) or ['data', provider, 'custom', { method, url, ...config }].
 */
function arrivedFor(prefetched: Prefetched, key: QueryKey): Arrived<unknown> | undefined {
  if (key[0] !== 'data' || key[1] !== 'default') return undefined;
  const params = (key[key[2] === 'custom' ? 3 : 4] ?? {}) as Record<string, any>;
  if (key[2] === 'custom') {
    const { method, url, query, payload, headers } = params;
    return method === 'get' && !payload && !headers && typeof url === 'string' ? prefetched.arrivedGet(url, query) : undefined;
  }
  if (key[3] !== 'list' || typeof key[2] !== 'string') return undefined;
  const { filters, sorters, pagination, ...meta } = params;
  return prefetched.arrivedList({ resource: key[2], filters, sorters, pagination: pagination ?? { mode: 'off' }, meta });
}

export function createQueryClient(prefetched?: Prefetched): QueryClient {
  // When each query started with a prefetched answer, kept while that answer is its data.
  const started = new WeakMap<Query, number>();
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        placeholderData: keepPreviousData,
        staleTime: (query) => (started.get(query) === query.state.dataUpdatedAt ? PREFETCHED_MS : 0),
      },
    },
  });
  if (prefetched) {
    // Synchronously as Refine's hook creates the query, before its first result is read.
    client.getQueryCache().subscribe((event) => {
      if (event.type !== 'added') return;
      const arrived = arrivedFor(prefetched, event.query.queryKey);
      if (!arrived) return;
      event.query.setData(arrived.data, { updatedAt: arrived.at, manual: false });
      started.set(event.query, arrived.at);
    });
  }
  const known =
    <T>(answer: (user: NonNullable<ReturnType<typeof identity.known>>) => T) =>
    () => {
      const user = identity.known();
      return user ? answer(user) : undefined;
    };
  client.setQueryDefaults(['auth', 'check'], { initialData: known(() => ({ authenticated: true })) });
  client.setQueryDefaults(['auth', 'identity'], { initialData: known((user) => user) });
  client.setQueryDefaults(['auth', 'permissions'], { initialData: known((user) => user.role) });
  for (const [resource, actions] of Object.entries(PERMISSIONS)) {
    for (const action of Object.keys(actions)) {
      client.setQueryDefaults(['access', resource, action], { initialData: known((user) => accessAnswer(user.role, resource, action)) });
    }
  }
  return client;
}
