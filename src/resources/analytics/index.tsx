import { LineChartOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Analytics (admin): its charts load with the page only. */
export const analytics: PanelResource = {
  name: 'analytics',
  icon: <LineChartOutlined />,
  list: { path: '/analytics', page: lazyPage(() => import('./list'), 'AnalyticsPage') },
};
