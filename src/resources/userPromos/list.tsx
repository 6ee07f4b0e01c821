import { Alert } from 'antd';
import { type Control, useWatch } from 'react-hook-form';
import { CONFIG_SCREENS, GENERAL, PROMOS, type UserPromo, userPromoBody } from '../../contract';
import { CrudPage } from '../../components/CrudPage';
import { ActiveTag, activeOptions, dateTime } from '../../components/display';
import type { FieldOverrides } from '../../components/form';
import { useServerOptions } from '../../features/servers';

/** Live total of the form: credits required plus bonus. */
function TotalCreditsPreview({ control }: { control: Control }) {
  const [required, bonus] = useWatch({ control, name: ['credits_required', 'bonus_credits'] }).map((v) => Number(v ?? 0) || 0);
  return <Alert type="info" showIcon data-testid="promo-total" message={CONFIG_SCREENS.totalCredits(required + bonus)} />;
}

/** User promos (menu 'Dealer Promo'); /promos is the same screen. */
export function UserPromosPage() {
  const servers = useServerOptions();
  // The servers are read at run time: the one thing the schema cannot say.
  const fieldOverrides: FieldOverrides = { server_id: { type: 'select', options: servers.options, placeholder: GENERAL.serverPlaceholder } };
  return (
    <CrudPage<UserPromo, 'user-promos'>
      resource="user-promos"
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
      fieldOverrides={fieldOverrides}
      formExtra={(_mode, form) => <TotalCreditsPreview control={form.control} />}
    />
  );
}
