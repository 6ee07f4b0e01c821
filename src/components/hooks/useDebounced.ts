import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../contract';

/** The value as it was `ms` after it last changed (search boxes and text filters wait for typing to pause). */
export function useDebounced<T>(value: T, ms: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
