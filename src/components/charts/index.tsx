/**
 * Charts, loaded with the pages that draw them: @ant-design/plots lands only in their chunks. Each
 * keeps its size while it loads, so the page does not jump.
 */
import { Spin } from 'antd';
import { Suspense, lazy } from 'react';
import type { MonthlyCredits } from './YearlyCreditsChart';

export type { MonthlyCredits } from './YearlyCreditsChart';

const Yearly = lazy(() => import('./YearlyCreditsChart').then((m) => ({ default: m.YearlyCreditsChart })));
const YEARLY_HEIGHT = 220;

export function YearlyCreditsChart({ points }: { points: MonthlyCredits[] }) {
  return (
    <div role="img" aria-label="Credits sold per month this year" style={{ height: YEARLY_HEIGHT }}>
      <Suspense fallback={<Spin style={{ display: 'block', paddingTop: YEARLY_HEIGHT / 2 - 10 }} />}>
        <Yearly points={points} height={YEARLY_HEIGHT} />
      </Suspense>
    </div>
  );
}
