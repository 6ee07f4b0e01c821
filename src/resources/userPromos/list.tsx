import { Alert } from 'antd';
import { type Control, useWatch } from 'react-hook-form';
import { CONFIG_SCREENS, GENERAL, PROMOS, type UserPromo, userPromoBody } from '../../contract';
import { CrudPage } from '../../components/CrudPage';
import { ActiveTag, activeOptions, dateTime } from '../../components/display';
import type { FieldDef } from '../../components/form/fields';
import { useServerOptions } from '../../features/servers';

/** Live total of the form: credits required plus bonus. */
function TotalCreditsPreview({ control }: { control: Control }) {
  const [required, bonus] = useWatch({ control, name: ['credits_required', 'bonus_credits'] }).map((v) => Number(v ?? 0) || 0);
  return <Alert type="info" showIcon data-testid="promo-total" message={CONFIG_SCREENS.totalCredits(required + bonus)} />;
}

/** User promos (menu 'Dealer Promo'); /promos is the same screen. */
export function UserPromosPage() {
  const servers = useServerOptions();
  const fields: FieldDef[] = [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'description', label: 'Description', type: 'textarea' },
    { name: 'server_id', label: 'Server', type: 'select', options: servers.options, required: true, placeholder: GENERAL.serverPlaceholder },
    { name: 'credits_required', label: 'Credits Required', type: 'number', min: 1, step: 1, required: true },
    { name: 'bonus_credits', label: 'Bonus Credits', type: 'number', min: 1, step: 1, required: true },
    { name: 'is_active', label: 'Active', type: 'switch', initial: true },
  ];
  return (
    <CrudPage<UserPromo, 'user-promos'>
      resource="user-promos"
      title="Dealer Promos"
      singular="promo"
      searchPlaceholder="Search promos..."
      messages={{ createFailed: PROMOS.createFailed, updateFailed: PROMOS.updateFailed, deleteFailed: PROMOS.deleteFailed }}
      bulkDelete
      schema={userPromoBody}
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
      formExtra={(_mode, form) => <TotalCreditsPreview control={form.control} />}
    />
  );
}
