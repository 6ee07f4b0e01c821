import { GiftOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

const UserPromosPage = lazyPage(() => import('./list'), 'UserPromosPage');

/** /user-promos and /promos are one screen (labelled Dealer Promo in the menu). */
export const userPromos: PanelResource = {
  name: 'user-promos',
  icon: <GiftOutlined />,
  list: { path: '/user-promos', page: UserPromosPage },
  routes: [{ path: '/promos', page: UserPromosPage, access: ['promos', 'list'] }],
};
