/**
 * Credit options settings: the amounts offered in the Add Credits dialog to non-admin givers and to
 * admin giving to resellers and dealers. The form, a reset to the defaults, and a test panel that
 * shows what a giver holding N credits would be offered.
 */
import { useCan } from '@refinedev/core';
import { ExperimentOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Empty, Form, Input, InputNumber, Row, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  CONFIG_SCREENS,
  CREDIT_OPTIONS,
  CREDIT_OPTIONS_TEST_DEFAULT,
  type CreditOptionsSettings,
  type CreditOptionsTestResult,
  FIELD_RULES,
  GENERAL,
} from '../../contract';
import { useConfirm, useNotify } from '../../components/feedback';
import { notBelowRule } from '../../components/form/rules';
import { http } from '../../providers/http';
import { ConfigLoading, useConfigDocument } from '../configDocument';

/** The form holds the two lists as comma-separated text. */
type FormValues = Omit<CreditOptionsSettings, 'preset_amounts' | 'percentage_options'> & { preset_amounts: string; percentage_options: string };

const toForm = (s: CreditOptionsSettings): FormValues => ({ ...s, preset_amounts: s.preset_amounts.join(', '), percentage_options: s.percentage_options.join(', ') });

/** '10, 25,50' -> [10, 25, 50]; null when any item is not an integer within [min, max]. */
export function parseIntegerList(text: string | undefined, min: number, max: number): number[] | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return [];
  const items = trimmed.split(',').map((part) => part.trim());
  if (!items.every((item) => /^\d+$/.test(item))) return null;
  const numbers = items.map(Number);
  return numbers.every((n) => n >= min && n <= max) ? numbers : null;
}

const listRule = (message: string, min: number, max: number) => ({
  validator: (_: unknown, value: string | undefined) => (parseIntegerList(value, min, max) ? Promise.resolve() : Promise.reject(new Error(message))),
});

const between = (label: string, min: number, max: number) => [
  { required: true, type: 'number' as const, min, max, message: FIELD_RULES.between(label, min, max) },
];

function TestPanel() {
  const notify = useNotify();
  const [credits, setCredits] = useState<number | null>(CREDIT_OPTIONS_TEST_DEFAULT);
  const [result, setResult] = useState<CreditOptionsTestResult | null>(null);
  const [running, setRunning] = useState(false);
  const run = () => {
    setRunning(true);
    http
      .post<{ data: CreditOptionsTestResult }>('credit-options-settings/test', { user_credits: credits ?? CREDIT_OPTIONS_TEST_DEFAULT })
      .then(({ data }) => setResult(data.data))
      .catch((error) => {
        setResult(null);
        notify.httpError(error, CREDIT_OPTIONS.testFailed);
      })
      .finally(() => setRunning(false));
  };
  return (
    <Card title="Test Credit Options">
      <Typography.Paragraph type="secondary">What a giver holding this many credits would be offered with the saved settings.</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <InputNumber aria-label="User credits" min={1} max={1_000_000} precision={0} value={credits} onChange={setCredits} style={{ width: '100%' }} />
        <Button type="primary" icon={<ExperimentOutlined />} loading={running} onClick={run}>
          Test
        </Button>
      </Space.Compact>
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
  const [form] = Form.useForm<FormValues>();
  const { value: settings, loadError, load, applied, save: put, saving } = useConfigDocument<CreditOptionsSettings>(
    'credit-options-settings',
    { loadFailed: CREDIT_OPTIONS.loadFailed, saveFailed: CREDIT_OPTIONS.saveFailed, saved: CONFIG_SCREENS.creditOptionsSaved },
    form,
    toForm,
  );

  const save = (values: FormValues) =>
    put({
      ...values,
      preset_amounts: parseIntegerList(values.preset_amounts, 1, 1_000_000) ?? [],
      percentage_options: parseIntegerList(values.percentage_options, 1, 100) ?? [],
    });

  const reset = () =>
    confirm('Reset Settings', CONFIG_SCREENS.resetConfirm, () =>
      http
        .post<{ data: CreditOptionsSettings }>('credit-options-settings/reset')
        .then(({ data }) => {
          applied(data.data);
          notify.success(CONFIG_SCREENS.creditOptionsReset);
        })
        .catch((error) => notify.httpError(error, CREDIT_OPTIONS.resetFailed)),
    'Reset');

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
          <Form form={form} layout="vertical" initialValues={toForm(settings)} onFinish={save} disabled={!canEdit}>
            <Row gutter={16}>
              <Col xs={24} sm={8}>
                <Form.Item name="min_credits" label="Min credits" rules={between('Min credits', 1, 100_000)}>
                  <InputNumber min={1} max={100_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={8}>
                <Form.Item
                  name="max_credits"
                  label="Max credits"
                  dependencies={['min_credits']}
                  rules={[
                    ...between('Max credits', 1, 1_000_000),
                    notBelowRule('min_credits', 'Max credits', 'min credits'),
                  ]}
                >
                  <InputNumber min={1} max={1_000_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={8}>
                <Form.Item name="increment_step" label="Increment step" rules={between('Increment step', 1, 10_000)}>
                  <InputNumber min={1} max={10_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              name="preset_amounts"
              label="Preset amounts"
              extra="Comma-separated positive integers, e.g. 10, 25, 50"
              rules={[listRule(FIELD_RULES.positiveIntegers('Preset amounts'), 1, 1_000_000)]}
            >
              <Input />
            </Form.Item>
            <Form.Item name="enable_percentage_options" label="Percentage options" valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item
              name="percentage_options"
              label="Percentages"
              extra="Comma-separated integers from 1 to 100: shares of the giver's balance"
              rules={[listRule(FIELD_RULES.between('Percentages', 1, 100), 1, 100)]}
            >
              <Input />
            </Form.Item>
            <Row gutter={16}>
              <Col xs={24} sm={12}>
                <Form.Item name="enable_all_available_option" label="All available option" valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="is_active" label="Active" valuePropName="checked" extra="When inactive, the fallback list (10 in steps of 5) is offered.">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
              Save
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <TestPanel />
      </Col>
    </Row>
  );
}
