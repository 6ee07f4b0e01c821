/**
 * antd's Result, loaded when one first shows: with its 403, 404 and 500 illustrations it is about
 * 10 KB gzip that no first screen draws (the status popup, access denied, maintenance, not found).
 */
import type { ResultProps } from 'antd';
import { Suspense } from 'react';
import { lazyComponent } from '../lazyComponent';

const Result = lazyComponent(() => import('./antdResult'), 'Result');

export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <Result {...props} />
    </Suspense>
  );
}

/** Loads it ahead of its first use. */
export const preloadResult = Result.preload;
