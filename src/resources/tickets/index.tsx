import { CustomerServiceOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Tickets: every role opens and answers them; a ticket's thread opens in a drawer (/tickets?ticket=ID). */
export const tickets: PanelResource = {
  name: 'tickets',
  icon: <CustomerServiceOutlined />,
  list: { path: '/tickets', page: lazyPage(() => import('./list'), 'TicketsPage') },
};
