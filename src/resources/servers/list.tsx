import { ApiOutlined, HomeOutlined } from '@ant-design/icons';
import { useCan, useCustomMutation, useInvalidate, useNotification } from '@refinedev/core';
import { Breadcrumb, Tag, Tooltip } from 'antd';
import { Link } from 'react-router';
import { CONFIG_SCREENS, ENTITY_FORM, SERVERS, SERVER_DEFAULTS, SERVER_TIMEOUT_RANGE, type Server, serverBody } from '../../contract';
import { PageAccess } from '../../components/routing';
import { CrudPage } from '../../components/CrudPage';
import { StatusTag, dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import type { FieldDef } from '../../components/form/fields';

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

const passwordField = (mode: 'create' | 'edit'): FieldDef => ({
  name: 'db_password',
  label: 'Database Password',
  type: 'password',
  only: mode,
  // Write-only: the API never sends it back, so an empty field on edit keeps the stored one.
  placeholder: mode === 'edit' ? ENTITY_FORM.keepPassword : undefined,
});

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  {
    name: 'driver',
    label: 'Driver',
    type: 'select',
    options: driverOptions,
    initial: SERVER_DEFAULTS.driver,
    help: 'Ministra: accounts are also written to the users table of this database (a Ministra/Stalker middleware).',
  },
  { name: 'db_host', label: 'Database Host', type: 'text', required: true, placeholder: 'db.example.com' },
  {
    name: 'db_port',
    label: 'Database Port',
    type: 'number',
    min: 1,
    max: 65535,
    initial: Number(SERVER_DEFAULTS.db_port),
  },
  { name: 'db_name', label: 'Database Name', type: 'text', required: true },
  { name: 'db_username', label: 'Database Username', type: 'text', required: true },
  passwordField('create'),
  passwordField('edit'),
  {
    name: 'timeout_seconds',
    label: SERVERS.timeoutLabel,
    type: 'number',
    min: SERVER_TIMEOUT_RANGE.min,
    max: SERVER_TIMEOUT_RANGE.max,
    initial: SERVER_DEFAULTS.timeout_seconds,
    help: SERVERS.timeoutHelp,
  },
  { name: 'status', label: 'Status', type: 'select', options: statusOptions, initial: SERVER_DEFAULTS.status },
  { name: 'connection_status', label: 'Connection Status', type: 'select', options: connectionOptions, initial: SERVER_DEFAULTS.connection_status },
];

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
      title="Servers"
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
