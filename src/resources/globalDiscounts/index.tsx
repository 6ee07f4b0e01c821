import { PercentageOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Global discounts, labelled User Promo in the menu. */
export const globalDiscounts: PanelResource = {
  name: 'global-discounts',
  icon: <PercentageOutlined />,
  list: { path: '/global-discounts', page: lazyPage(() => import('./list'), 'GlobalDiscountsPage') },
};
