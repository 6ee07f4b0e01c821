import { GiftOutlined } from '@ant-design/icons';
import { Alert, Form } from 'antd';
import { CONFIG_SCREENS, ENTITY_FORM, GENERAL, PROMOS, type UserPromo } from '../contract';
import { CrudPage } from '../components/CrudPage';
import { ActiveTag, activeOptions, dateTime } from '../components/display';
import type { FieldDef } from '../components/form/fields';
import { useServerOptions } from './serverOptions';
import type { PanelResource } from './types';

const atLeastOne = (message: string) => [{ type: 'number' as const, min: 1, message }];

/** Live total of the form: credits required plus bonus (spec 2). */
function TotalCreditsPreview() {
  const required = Number(Form.useWatch('credits_required') ?? 0) || 0;
  const bonus = Number(Form.useWatch('bonus_credits') ?? 0) || 0;
  return <Alert type="info" showIcon data-testid="promo-total" message={CONFIG_SCREENS.totalCredits(required + bonus)} />;
}

/** User promos (menu 'Dealer Promo'); /promos is the same screen. */
function UserPromosPage() {
  const servers = useServerOptions();
  const fields: FieldDef[] = [
    { name: 'name', label: 'Name', type: 'text', required: ENTITY_FORM.nameRequired },
    { name: 'description', label: 'Description', type: 'textarea' },
    { name: 'server_id', label: 'Server', type: 'select', options: servers.options, required: PROMOS.serverRequired, placeholder: GENERAL.serverPlaceholder },
    { name: 'credits_required', label: 'Credits Required', type: 'number', min: 1, step: 1, required: PROMOS.creditsRequiredMin, rules: atLeastOne(PROMOS.creditsRequiredMin) },
    { name: 'bonus_credits', label: 'Bonus Credits', type: 'number', min: 1, step: 1, required: PROMOS.bonusCreditsMin, rules: atLeastOne(PROMOS.bonusCreditsMin) },
    { name: 'is_active', label: 'Active', type: 'switch', initial: true },
  ];
  return (
    <CrudPage<UserPromo>
      resource="user-promos"
      title="Dealer Promos"
      singular="promo"
      searchPlaceholder="Search promos..."
      messages={{ createFailed: PROMOS.createFailed, updateFailed: PROMOS.updateFailed, deleteFailed: PROMOS.deleteFailed }}
      bulkDelete
      selectFilters={[
        { field: 'server_id', label: 'Server', options: servers.options },
        { field: 'is_active', label: 'Status', options: activeOptions },
      ]}
      columns={[
        { dataIndex: 'name', title: 'Name', sortable: true },
        { dataIndex: 'server.name', title: 'Server', render: (v: string | undefined) => v ?? '—' },
        { dataIndex: 'credits_required', title: 'Credits Required', sortable: true },
        { dataIndex: 'bonus_credits', title: 'Bonus Credits', sortable: true },
        { dataIndex: 'total_credits', title: 'Total Credits' },
        { dataIndex: 'is_active', title: 'Status', sortable: true, render: (v: boolean) => <ActiveTag active={v} /> },
        { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
      ]}
      fields={fields}
      formExtra={() => <TotalCreditsPreview />}
    />
  );
}

export const userPromos: PanelResource = {
  resource: { name: 'user-promos', list: '/user-promos', meta: { label: 'Dealer Promo', icon: <GiftOutlined /> } },
  routes: [
    { path: '/user-promos', element: <UserPromosPage />, access: ['user-promos', 'list'] },
    { path: '/promos', element: <UserPromosPage />, access: ['promos', 'list'] },
  ],
};
