import { TagsOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const ticketCategories: PanelResource = {
  name: 'ticket-categories',
  icon: <TagsOutlined />,
  list: { path: '/ticket-categories', page: lazyPage(() => import('./list'), 'TicketCategoriesPage') },
};
