/** Its own module: the renderers of index.tsx load with the first screen, which draws no figure (antd's Statistic stays out of it). */
import { Skeleton, Statistic, type StatisticProps } from 'antd';

/**
 * A figure whose value, while it loads, is a skeleton inside the value's own line: the card around
 * it keeps the height it will have, so that nothing below moves when the figure arrives.
 */
export function Figure({ loading, suffix, ...props }: StatisticProps & { loading: boolean }) {
  return (
    <Statistic
      {...props}
      suffix={loading ? undefined : suffix}
      valueRender={loading ? () => <Skeleton.Input active size="small" style={{ verticalAlign: 'middle' }} /> : undefined}
    />
  );
}
