import { ApiOutlined, HomeOutlined } from '@ant-design/icons';
import { useCan, useCustomMutation, useInvalidate, useNotification } from '@refinedev/core';
import { Breadcrumb, Tag, Tooltip } from 'antd';
import { Link } from 'react-router';
import { CONFIG_SCREENS, ENTITY_FORM, SERVERS, SERVER_DEFAULTS, type Server, serverBody } from '../../contract';
import { PageAccess } from '../../components/routing';
import { CrudPage } from '../../components/CrudPage';
import { StatusTag, dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import { type FieldDef, fieldsOf } from '../../components/form';

const statusOptions = [
  { label: 'Active', value: 'active' },
  { label: 'Inactive', value: 'inactive' },
];
const driverOptions = [
  { label: 'Local (panel only)', value: 'local' },
  { label: 'Ministra (MySQL/MariaDB)', value: 'ministra' },
];
const driverLabel = (value: string) => driverOptions.find((o) => o.value === value)?.label.split(' (')[0] ?? value;
const connectionOptions = [
  { label: 'Online', value: 'online' },
  { label: 'Offline', value: 'offline' },
];

const breakerColor = { closed: 'green', open: 'red', half_open: 'orange' } as const;

/** The server's circuit breaker, as the API process that answered holds it; local servers have none. */
function BreakerCell({ server }: { server: Server }) {
  if (server.driver === 'local') return <>—</>;
  const { state, failures, opened_at, retry_at } = server.breaker;
  return (
    <Tooltip title={SERVERS.breakerDetails(failures, opened_at && dateTime(opened_at), retry_at && dateTime(retry_at))}>
      <Tag color={breakerColor[state]}>{SERVERS.breakerStates[state]}</Tag>
      {failures > 0 && state === 'closed' ? <span>{failures}</span> : null}
    </Tooltip>
  );
}

const passwordField = (mode: 'create' | 'edit'): Partial<FieldDef> => ({
  type: 'password',
  only: mode,
  // Write-only: the API never sends it back, so an empty field on edit keeps the stored one.
  placeholder: mode === 'edit' ? ENTITY_FORM.keepPassword : undefined,
});

/** The schema's fields with what it cannot say: the drivers' descriptions, the port as a number, the password per mode. */
const fields: FieldDef[] = fieldsOf(serverBody, {
  driver: { options: driverOptions, help: 'Ministra: accounts are also written to the users table of this database (a Ministra/Stalker middleware).' },
  db_host: { placeholder: 'db.example.com' },
  db_port: { type: 'number', initial: Number(SERVER_DEFAULTS.db_port) },
  timeout_seconds: { help: SERVERS.timeoutHelp },
}).flatMap((field) =>
  field.name === 'db_password'
    ? [
        { ...field, ...passwordField('create') },
        { ...field, ...passwordField('edit') },
      ]
    : [field],
);

export function ServersPage() {
  const notify = useNotify();
  const { open } = useNotification();
  const invalidate = useInvalidate();
  const canCheck = useCan({ resource: 'servers', action: 'check' }).data?.can === true;

  const { mutateAsync: runCheck } = useCustomMutation<{ data: Server }>();

  const check = (server: Server) =>
    runCheck({ url: `servers/${server.id}/check`, method: 'post', values: {}, successNotification: false, errorNotification: false })
      .then(({ data }) => {
        const status = data.data.connection_status;
        open?.({ type: status === 'online' ? 'success' : 'error', message: CONFIG_SCREENS.connectionChecked(server.name, status) });
      })
      .catch((error) => notify.httpError(error, CONFIG_SCREENS.connectionCheckFailed))
      .finally(() => invalidate({ resource: 'servers', invalidates: ['list'] }));

  return (
    <PageAccess resource="servers">
      <CrudPage<Server, 'servers'>
        resource="servers"
        schema={serverBody}
        singular="server"
        header={
          <Breadcrumb
            items={[
              {
                title: (
                  <Link to="/">
                    <HomeOutlined /> Home
                  </Link>
                ),
              },
              { title: 'Servers' },
            ]}
          />
        }
        searchPlaceholder="Search servers..."
        messages={{
          loadFailed: SERVERS.loadFailed,
          createFailed: SERVERS.createFailed,
          updateFailed: SERVERS.updateFailed,
          deleteFailed: SERVERS.deleteFailed,
          bulkDeleteFailed: SERVERS.bulkDeleteFailed,
        }}
        notifyLoadError
        bulkDelete
        selectFilters={[
          { field: 'status', label: 'Status', options: statusOptions },
          { field: 'connection_status', label: 'Connection', options: connectionOptions },
          { field: 'driver', label: 'Driver', options: driverOptions },
        ]}
        columns={[
          { dataIndex: 'name', title: 'Name', sortable: true },
          { dataIndex: 'db_host', title: 'Host', sortable: true, render: (_: unknown, r: Server) => `${r.db_host}:${r.db_port}` },
          { dataIndex: 'db_name', title: 'Database' },
          { dataIndex: 'driver', title: 'Driver', render: driverLabel, priority: 'secondary' },
          { dataIndex: 'status', title: 'Status', sortable: true, render: (v: string) => <StatusTag status={v} /> },
          { dataIndex: 'connection_status', title: 'Connection', sortable: true, render: (v: string) => <StatusTag status={v} /> },
          { dataIndex: 'breaker', title: SERVERS.breakerTitle, render: (_: unknown, r: Server) => <BreakerCell server={r} /> },
          { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
        ]}
        fields={fields}
        toPayload={(values) => {
          const { db_password, ...rest } = values;
          return { ...rest, ...(db_password ? { db_password } : {}) };
        }}
        extraRowActions={() => [{ key: 'check', label: CONFIG_SCREENS.checkConnection, icon: <ApiOutlined />, hidden: !canCheck, onClick: check }]}
      />
    </PageAccess>
  );
}
