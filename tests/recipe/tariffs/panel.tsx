/** The panel of a plain resource: its declaration and its page (list, create, edit, show). */
import { DollarOutlined } from '@ant-design/icons';
import { CrudPage } from '../../../src/components/CrudPage';
import { type PanelResource, lazyPage } from '../../../src/components/routing';
import { type Tariff, tariffBody, tariffEntity, tariffLabel } from './contract';

export const tariffs: PanelResource = {
  name: 'tariffs',
  // In the product the label is the resource's entry in RESOURCE_LABELS (src/contract/routes.ts).
  label: tariffLabel,
  icon: <DollarOutlined />,
  list: { path: '/tariffs', page: lazyPage(() => import('./panel'), 'TariffsPage') },
};

export function TariffsPage() {
  return <CrudPage<Tariff, 'tariffs'> resource="tariffs" singular="tariff" schema={tariffBody} entity={tariffEntity} columns={['name', 'months', 'credits', 'active']} />;
}
