/**
 * One h1 per page. The page's own title claims it (the data table's title, the first on the page);
 * a page without one gets the route's title as an h1 that only assistive technologies see.
 */
import { createContext, type ReactNode, useContext, useId, useLayoutEffect, useState } from 'react';

type Claim = (id: string) => () => void;

const ClaimContext = createContext<Claim | null>(null);
const OwnerContext = createContext<string | null>(null);

/**
 * Whether the caller's title is the page's h1: true for the first title that asks on the page (and
 * outside a page frame); false for later ones, which are sub-headings.
 */
export function usePageHeading(wants: boolean): boolean {
  const claim = useContext(ClaimContext);
  const owner = useContext(OwnerContext);
  const id = useId();
  useLayoutEffect(() => (claim && wants ? claim(id) : undefined), [claim, wants, id]);
  return wants && (!claim || owner === id);
}

/** Frames a page: `title` (the route's) becomes a hidden h1 while nothing on the page claims the heading. */
export function PageHeadingProvider({ title, children }: { title: string; children: ReactNode }) {
  const [claims, setClaims] = useState<string[]>([]);
  const [claim] = useState<Claim>(() => (id: string) => {
    setClaims((current) => [...current, id]);
    return () => setClaims((current) => current.filter((c) => c !== id));
  });
  const owner = claims[0] ?? null;
  return (
    <ClaimContext.Provider value={claim}>
      <OwnerContext.Provider value={owner}>
        {owner === null && (
          <h1 className="visually-hidden" data-testid="page-heading">
            {title}
          </h1>
        )}
        {children}
      </OwnerContext.Provider>
    </ClaimContext.Provider>
  );
}
