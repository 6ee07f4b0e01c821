/**
 * System Settings (docs/domain.md#system-settings): one tab with four cards. Numbers save through their own Save
 * button, switches save once their confirmation (what the change does to other users) is accepted, each
 * through PUT /system-settings/{key}.
 */
import { ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import type { HttpError } from '@refinedev/core';
import { Alert, Button, Card, Col, Descriptions, Input, type InputProps, Result, Row, Space, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import {
  CONFIG_SCREENS,
  GENERAL,
  SETTINGS,
  SETTING_SWITCHES,
  type SettingSwitch,
  type SystemSettingField,
  type SystemSettingsValues,
  TWO_FACTOR,
  VIEW_AS,
  systemSettingBody,
} from '../../contract';
import { errorToast, useConfirm, useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';
import { SmtpSettingsCard } from '../../features/notifications';
import { useAppConfig } from '../../providers/appConfig';
import { settingEndpoint, useSaveSystemSetting, useSystemSettings } from '../../providers/systemSettings';

const NUMBERS: Array<{ field: SystemSettingField; label: string; help: string }> = [
  { field: 'trial_days', label: 'Trial Days', help: 'How long a trial account lasts.' },
  { field: 'default_credits', label: 'Default Credits', help: 'Credits one renewal month costs when no global discount applies.' },
  { field: 'minimum_credit_limit', label: 'Minimum Credit Limit', help: 'Smallest amount of one Add Credits operation by a non-admin (0 = none).' },
  { field: 'minimum_credits_reseller_creation', label: 'Minimum Credits for Reseller Creation', help: 'Credits a manager must hold to create a reseller (0 = no rule).' },
  { field: 'minimum_credits_dealer_creation', label: 'Minimum Credits for Dealer Creation', help: 'Credits a reseller must hold to create a dealer (0 = no rule).' },
  {
    field: 'minimum_credits_trial_user_creation',
    label: 'Minimum Credits for Trial User Creation',
    help: 'Credits a user must hold to create a trial account (0 = no rule).',
  },
  {
    field: 'trial_period_days',
    label: 'Trial Period (days)',
    help: 'A device (MAC address) gets one trial in this many days, across servers and branches; deleting the account does not free it.',
  },
  { field: 'trials_per_day', label: 'Trials per User per Day', help: 'Trial accounts one user may create per day (UTC) (0 = none).' },
];
const NUMBER_FIELDS = NUMBERS.map((n) => n.field);

const FEATURES: Array<{ field: SettingSwitch; label: string; help: string }> = [
  { field: 'enable_trials', label: 'Enable Trials', help: 'Trial accounts may be created.' },
  { field: 'enable_promos', label: 'Enable Promos', help: 'Master switch for every bonus credit.' },
  { field: 'enable_reseller_dealer_promos', label: 'Enable Reseller/Dealer Promos', help: 'Dealer promos apply to credits given to resellers and dealers.' },
  { field: 'global_discounts_enabled', label: 'Enable Global Discounts', help: 'Renewal pricing uses the global discounts (User Promo).' },
  { field: 'view_as_can_act', label: VIEW_AS.settingLabel, help: VIEW_AS.settingHelp },
];

/** Two-factor sign-in required per role (the admin's own can be reset only from the command line). */
const TWO_FACTOR_SWITCHES: Array<{ field: SettingSwitch; label: string; help: string }> = (
  [
    ['two_factor_admin', 'Administrators', 'administrators'],
    ['two_factor_manager', 'Managers', 'managers'],
    ['two_factor_reseller', 'Resellers', 'resellers'],
    ['two_factor_dealer', 'Dealers', 'dealers'],
  ] as const
).map(([field, label, who]) => ({ field, label: `Require for ${label}`, help: TWO_FACTOR.settingsHelp(who) }));

const LABELS: Record<SystemSettingField, string> = Object.fromEntries(
  [...NUMBERS, ...FEATURES, ...TWO_FACTOR_SWITCHES, { field: 'maintenance_mode', label: CONFIG_SCREENS.maintenanceMode }].map((s) => [s.field, s.label]),
) as Record<SystemSettingField, string>;

/**
 * The numbers form: each setting checked by the rule of its own PUT body (contract systemSettingBody).
 * The field holds the text as typed, so an empty box or 'abc' is refused with that rule's message
 * rather than dropped or replaced.
 */
const numbersForm = z.object(Object.fromEntries(NUMBER_FIELDS.map((field) => [field, systemSettingBody(settingEndpoint(field).key).shape[field]])));

const numbersOf = (settings: SystemSettingsValues) => Object.fromEntries(NUMBER_FIELDS.map((field) => [field, settings[field]]));

/**
 * A number with its own Save button beside it (FormField binds the text). A plain text box: a number
 * box drops what is not a number and reports an empty one as null, so the rule never sees the typing.
 */
function NumberWithSave({ label, saving, onSave, ...input }: InputProps & { label: string; saving: boolean; onSave: () => void }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input {...input} aria-label={label} inputMode="numeric" autoComplete="off" style={{ width: '100%' }} onPressEnter={onSave} />
      <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={onSave} aria-label={`Save ${label}`}>
        Save
      </Button>
    </Space.Compact>
  );
}

export function SystemSettingsPage() {
  const notify = useNotify();
  const { confirm } = useConfirm();
  const { refetch: refetchAppConfig } = useAppConfig();
  const { settings: loaded, query } = useSystemSettings({ loadFailed: errorToast(null, SETTINGS.fetchFailed) });
  const { save: saveSetting } = useSaveSystemSetting();
  // What the API answered to the last save, over what was loaded.
  const [answered, setAnswered] = useState<SystemSettingsValues | null>(null);
  const settings = answered ?? loaded;
  const [saving, setSaving] = useState<SystemSettingField | null>(null);
  const form = useSchemaForm(numbersForm);
  const { control, reset, trigger, getValues, setValue, setError } = form;

  useEffect(() => {
    if (loaded) reset(numbersOf(loaded));
  }, [loaded, reset]);

  const load = () => {
    setAnswered(null);
    void query.refetch();
  };

  const save = async (field: SystemSettingField, value: number | boolean) => {
    setSaving(field);
    try {
      const next = await saveSetting(field, value);
      setAnswered(next);
      if (NUMBER_FIELDS.includes(field)) setValue(field, next[field]);
      notify.success(SETTINGS.updated);
      // Maintenance and trials are published to every role through /config.
      refetchAppConfig();
    } catch (error) {
      setServerErrors(setError, error as HttpError, NUMBER_FIELDS);
      notify.error(GENERAL.error, SETTINGS.updateFailed);
    } finally {
      setSaving(null);
    }
  };

  // Every switch here reaches other users (who may sign in, what credits and renewals give): it asks
  // first, saying what will happen; cancelling sends nothing and leaves the switch as it was.
  const toggle = (field: SettingSwitch, label: string, on: boolean) => {
    const effect = SETTING_SWITCHES.effects[field];
    confirm(SETTING_SWITCHES.confirmTitle(label, on), on ? effect.on : effect.off, () => save(field, on), on ? SETTING_SWITCHES.turnOn : SETTING_SWITCHES.turnOff);
  };

  const saveNumber = async (field: SystemSettingField) => {
    if (!(await trigger(field))) return;
    const value = numbersForm.shape[field].parse(getValues(field)) as number;
    setValue(field, value);
    await save(field, value);
  };

  if (!settings && (query.isLoading || query.isFetching)) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (!settings)
    return (
      <Result
        status="error"
        title={SETTINGS.fetchFailed}
        subTitle={query.error?.message ?? SETTINGS.fetchFailed}
        extra={
          <Button icon={<ReloadOutlined />} onClick={load}>
            Retry
          </Button>
        }
      />
    );

  const onOff = (on: boolean) => <Tag color={on ? 'green' : 'default'}>{on ? 'Enabled' : 'Disabled'}</Tag>;

  const trialCard = (
    <Card title={SETTINGS.trialCard}>
      {/* Each number saves alone, through its own button: the form only holds and checks them. */}
      <SchemaForm name="system-settings" handleSubmit={form.handleSubmit} onSubmit={() => undefined}>
        {NUMBERS.map(({ field, label, help }) => (
          <FormField key={field} control={control} name={field} label={label} extra={help}>
            <NumberWithSave label={label} saving={saving === field} onSave={() => void saveNumber(field)} />
          </FormField>
        ))}
      </SchemaForm>
    </Card>
  );

  const switchRow = (field: SettingSwitch, label: string, help: string) => (
    <Row key={field} justify="space-between" align="middle" wrap={false} style={{ padding: '12px 0', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
      <Col>
        <Typography.Text strong>{label}</Typography.Text>
        <br />
        <Typography.Text type="secondary">{help}</Typography.Text>
      </Col>
      <Col>
        <Switch
          aria-label={label}
          checked={Boolean(settings[field])}
          loading={saving === field}
          disabled={saving !== null && saving !== field}
          onChange={(checked) => toggle(field, label, checked)}
        />
      </Col>
    </Row>
  );

  const featureCard = <Card title={SETTINGS.featureCard}>{FEATURES.map(({ field, label, help }) => switchRow(field, label, help))}</Card>;

  const twoFactorCard = <Card title={TWO_FACTOR.settingsCard}>{TWO_FACTOR_SWITCHES.map(({ field, label, help }) => switchRow(field, label, help))}</Card>;

  const controlCard = (
    <Card title={SETTINGS.controlCard}>
      <Alert type="warning" showIcon message={CONFIG_SCREENS.maintenanceMode} description={CONFIG_SCREENS.maintenanceWarning} style={{ marginBottom: 8 }} />
      {switchRow('maintenance_mode', LABELS.maintenance_mode, 'Disable system access for everyone but administrators.')}
      {settings.maintenance_mode && <Alert type="error" showIcon style={{ marginTop: 12 }} message={CONFIG_SCREENS.maintenanceOn} />}
    </Card>
  );

  const summaryCard = (
    <Card title={SETTINGS.summaryCard}>
      <Descriptions column={1} size="small" bordered>
        {NUMBERS.map(({ field, label }) => (
          <Descriptions.Item key={field} label={label}>
            <span data-testid={`summary-${field}`}>{String(settings[field])}</span>
          </Descriptions.Item>
        ))}
        {[...FEATURES, ...TWO_FACTOR_SWITCHES, { field: 'maintenance_mode' as const, label: LABELS.maintenance_mode }].map(({ field, label }) => (
          <Descriptions.Item key={field} label={label}>
            <span data-testid={`summary-${field}`}>{onOff(Boolean(settings[field]))}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );

  return (
    <Tabs
      items={[
        {
          key: 'system',
          label: SETTINGS.title,
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={12}>
                {trialCard}
              </Col>
              <Col xs={24} xl={12}>
                <Space direction="vertical" size={16} style={{ width: '100%' }}>
                  {featureCard}
                  {twoFactorCard}
                  {controlCard}
                  {summaryCard}
                  <SmtpSettingsCard />
                </Space>
              </Col>
            </Row>
          ),
        },
      ]}
    />
  );
}
