/**
 * The columns a user has hidden in a list, remembered per signed-in user and list in this browser's
 * localStorage. Kept to one small hook so that the store can move (to the server) without its users
 * changing: `useColumnChoice(listName)` gives the hidden columns' names and a setter.
 */
import { useCallback, useState } from 'react';
import { useCurrentUser } from '../../providers/identity';

/** The storage key of a user's choice for a list. */
export const columnChoiceKey = (userId: string | number, listName: string) => `panel.columns.${userId}.${listName}`;

function read(key: string | null): string[] {
  if (key === null) return [];
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    // Unreadable or refused storage: every column shows.
    return [];
  }
}

export function useColumnChoice(listName: string): [hidden: string[], setHidden: (hidden: string[]) => void] {
  const { user } = useCurrentUser();
  // Nobody known yet (the identity is loading): nothing hidden and nothing stored.
  const key = user ? columnChoiceKey(user.id, listName) : null;
  const [choice, setChoice] = useState(() => ({ key, hidden: read(key) }));
  // Another user or list: read its choice while rendering, so no frame shows the previous one.
  const current = choice.key === key ? choice : { key, hidden: read(key) };
  if (current !== choice) setChoice(current);
  const setHidden = useCallback(
    (hidden: string[]) => {
      setChoice({ key, hidden });
      if (key === null) return;
      try {
        localStorage.setItem(key, JSON.stringify(hidden));
      } catch {
        // Storage full or refused: the choice holds until the page is left.
      }
    },
    [key],
  );
  return [current.hidden, setHidden];
}
