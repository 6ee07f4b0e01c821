/**
 * The panel's query client: Refine's defaults, and the auth and access checks answered on their first
 * render once the signed-in user is known. Those checks need no request of their own (the identity is
 * loaded before the first render, and the access rules are the contract's role matrix), but an answer
 * that arrives a tick later renders the frame and the page (and every button behind a check) once more
 * before a table can show its rows. Refine keys them ['auth', action] and ['access', resource, action,
 * ...]; the checks still run, and agree.
 */
import { QueryClient, keepPreviousData, notifyManager } from '@tanstack/react-query';
import { PERMISSIONS } from '../contract';
import { accessAnswer } from './accessControlProvider';
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

export function createQueryClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, placeholderData: keepPreviousData } } });
  const known = <T,>(answer: (user: NonNullable<ReturnType<typeof identity.known>>) => T) => () => {
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
