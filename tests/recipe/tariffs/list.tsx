/** A plain resource's page: list, create, edit and show, each from the contract's schemas. */
import { CrudPage } from '../../../src/components/CrudPage';
import { type Tariff, tariffBody, tariffEntity } from './contract';

export function TariffsPage() {
  return <CrudPage<Tariff, 'tariffs'> resource="tariffs" singular="tariff" schema={tariffBody} entity={tariffEntity} columns={['name', 'months', 'credits', 'active']} />;
}
