/** Credits sold per month of this year, as columns in the active theme. */
import { Column } from '@ant-design/plots';
import { useMemo } from 'react';
import { useChartTheme } from './useChartTheme';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface MonthlyCredits {
  month: number;
  credits: number;
}

export function YearlyCreditsChart({ points, height }: { points: MonthlyCredits[]; height: number }) {
  const chart = useChartTheme();
  const data = useMemo(() => points.map((p) => ({ month: MONTHS[p.month - 1], credits: p.credits })), [points]);
  return (
    <Column
      data={data}
      xField="month"
      yField="credits"
      height={height}
      autoFit
      theme={chart.theme}
      axis={chart.axis}
      style={{ fill: chart.color, radiusTopLeft: chart.radius, radiusTopRight: chart.radius, maxWidth: 48 }}
      tooltip={{ title: 'month', items: [{ channel: 'y', name: 'Credits' }] }}
      containerAttributes={{ 'data-theme': chart.dark ? 'dark' : 'light' }}
    />
  );
}
