/**
 * Credit options settings: the amounts offered in the Add Credits dialog to non-admin givers and to
 * admin giving to resellers and dealers. The form, a reset to the defaults, and a test panel that
 * shows what a giver holding N credits would be offered.
 */
import { type HttpError, useCan, useCustomMutation } from '@refinedev/core';
import { ExperimentOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Empty, Input, InputNumber, Row, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { z } from 'zod';
import {
  CONFIG_SCREENS,
  CREDIT_OPTIONS,
  type CreditOptionsSettings,
  type CreditOptionsTestResult,
  GENERAL,
  creditOptionsSettingsSchema,
  creditOptionsTestBody,
} from '../../contract';
import { useConfirm, useNotify } from '../../components/feedback';
import { FormField, SchemaForm, schemaField, setServerErrors, useSchemaForm } from '../../components/form';
import { ConfigLoading, useConfigDocument } from '../../features/settings/configDocument';

/** The amounts' labels and bounds are the contract schema's. */
const AMOUNT_FIELDS = ['min_credits', 'max_credits', 'increment_step'] as const;

/** The form holds the two lists as comma-separated text; the contract schema reads that text as lists. */
const toForm = (s: CreditOptionsSettings) => ({ ...s, preset_amounts: s.preset_amounts.join(', '), percentage_options: s.percentage_options.join(', ') });

/** The test panel's form: an emptied amount tests with the default, as the API does when none is sent. */
const testForm = z.object({ user_credits: z.preprocess((v) => v ?? undefined, creditOptionsTestBody.shape.user_credits) });

function TestPanel() {
  const notify = useNotify();
  const [result, setResult] = useState<CreditOptionsTestResult | null>(null);
  const { control, handleSubmit, setError } = useSchemaForm(testForm, { defaultValues: creditOptionsTestBody.parse({}) });
  const { mutateAsync, mutation } = useCustomMutation<{ data: CreditOptionsTestResult }, HttpError>();
  const run = (values: z.output<typeof testForm>) =>
    mutateAsync({ url: 'credit-options-settings/test', method: 'post', values, successNotification: false, errorNotification: false })
      .then(({ data }) => setResult(data.data))
      .catch((error: HttpError) => {
        setResult(null);
        setServerErrors(setError, error, ['user_credits']);
        notify.httpError(error, CREDIT_OPTIONS.testFailed);
      });
  return (
    <Card title="Test Credit Options">
      <Typography.Paragraph type="secondary">What a giver holding this many credits would be offered with the saved settings.</Typography.Paragraph>
      <SchemaForm name="credit-options-test" handleSubmit={handleSubmit} onSubmit={run}>
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <FormField control={control} name="user_credits" style={{ width: '100%', marginBottom: 0 }}>
            <InputNumber aria-label="User credits" precision={0} style={{ width: '100%' }} />
          </FormField>
          <Button type="primary" htmlType="submit" icon={<ExperimentOutlined />} loading={mutation.isPending}>
            Test
          </Button>
        </Space.Compact>
      </SchemaForm>
      {result ? (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Options count">
              <span data-testid="test-options-count">{result.options_count}</span>
            </Descriptions.Item>
            <Descriptions.Item label="User credits">{result.user_credits}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            Generated options
          </Typography.Title>
          {result.generated_options.length ? (
            <Space wrap data-testid="test-generated-options">
              {result.generated_options.map((v) => (
                <Tag key={v} color="blue">
                  {v}
                </Tag>
              ))}
            </Space>
          ) : (
            <Empty description={GENERAL.noData} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </>
      ) : null}
    </Card>
  );
}

export function CreditOptionsSettingsPage() {
  const notify = useNotify();
  const { confirm } = useConfirm();
  const canEdit = useCan({ resource: 'credit-options-settings', action: 'edit' }).data?.can === true;
  const {
    form,
    value: settings,
    loadError,
    load,
    applied,
    save,
    saving,
  } = useConfigDocument<CreditOptionsSettings>(
    'credit-options-settings',
    creditOptionsSettingsSchema,
    { loadFailed: CREDIT_OPTIONS.loadFailed, saveFailed: CREDIT_OPTIONS.saveFailed, saved: CONFIG_SCREENS.creditOptionsSaved },
    toForm,
  );
  const { control } = form;

  const { mutateAsync: resetSettings } = useCustomMutation<{ data: CreditOptionsSettings }, HttpError>();
  const reset = () =>
    confirm(
      'Reset Settings',
      CONFIG_SCREENS.resetConfirm,
      () =>
        resetSettings({ url: 'credit-options-settings/reset', method: 'post', values: {}, successNotification: false, errorNotification: false })
          .then(({ data }) => {
            applied(data.data);
            notify.success(CONFIG_SCREENS.creditOptionsReset);
          })
          .catch((error) => notify.httpError(error, CREDIT_OPTIONS.resetFailed)),
      'Reset',
    );

  if (loadError || !settings) return <ConfigLoading title={CREDIT_OPTIONS.loadFailed} error={loadError} onRetry={load} />;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <Card
          title={CONFIG_SCREENS.creditOptionsTitle}
          extra={
            canEdit && (
              <Button icon={<UndoOutlined />} onClick={reset}>
                Reset
              </Button>
            )
          }
        >
          <Typography.Paragraph type="secondary">
            The amounts offered in the Add Credits dialog to managers, resellers and dealers, and to administrators giving to resellers and dealers.
          </Typography.Paragraph>
          <SchemaForm name="credit-options-settings" handleSubmit={form.handleSubmit} onSubmit={save} disabled={!canEdit}>
            <Row gutter={16}>
              {AMOUNT_FIELDS.map((name) => {
                const field = schemaField(creditOptionsSettingsSchema, name);
                return (
                  <Col xs={24} sm={8} key={name}>
                    <FormField control={control} name={name} label={field.label} required={field.required === true}>
                      <InputNumber min={field.min} max={field.max} precision={0} style={{ width: '100%' }} />
                    </FormField>
                  </Col>
                );
              })}
            </Row>
            <FormField control={control} name="preset_amounts" label="Preset amounts" extra="Comma-separated positive integers, e.g. 10, 25, 50">
              <Input />
            </FormField>
            <FormField control={control} name="enable_percentage_options" label="Percentage options" valuePropName="checked">
              <Switch />
            </FormField>
            <FormField control={control} name="percentage_options" label="Percentages" extra="Comma-separated integers from 1 to 100: shares of the giver's balance">
              <Input />
            </FormField>
            <Row gutter={16}>
              <Col xs={24} sm={12}>
                <FormField control={control} name="enable_all_available_option" label="All available option" valuePropName="checked">
                  <Switch />
                </FormField>
              </Col>
              <Col xs={24} sm={12}>
                <FormField
                  control={control}
                  name="is_active"
                  label="Active"
                  valuePropName="checked"
                  extra="When inactive, the fallback list (10 in steps of 5) is offered."
                >
                  <Switch />
                </FormField>
              </Col>
            </Row>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
              Save
            </Button>
          </SchemaForm>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <TestPanel />
      </Col>
    </Row>
  );
}
