/**
 * Credit levels (admin allocations to managers): the configuration form and a live preview of the
 * levels it offers (up to 21 from the minimum, bonus = round(base x ratio)).
 */
import { useCan } from '@refinedev/core';
import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Col, InputNumber, List, Row, Space, Switch, Tag, Typography } from 'antd';
import { type Control, useWatch } from 'react-hook-form';
import {
  CONFIG_SCREENS,
  CREDIT_LEVELS,
  CREDIT_LEVELS_PREVIEW_MAX,
  type CreditLevelsConfig,
  creditLevels,
  creditLevelsConfigSchema,
  defaultCreditLevels,
  plural,
} from '../../contract';
import { FormField, SchemaForm } from '../../components/form';
import { ConfigLoading, useConfigDocument } from '../../features/settings/configDocument';

/** The levels the current form values would offer. */
function LevelsPreview({ control }: { control: Control<any> }) {
  const values = useWatch({ control }) as Partial<CreditLevelsConfig> | undefined;
  const config: CreditLevelsConfig = { ...defaultCreditLevels(), ...Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => v !== null && v !== undefined)) };
  const valid = config.minimum >= 1 && config.step >= 1 && config.maximum >= config.minimum && config.promo_ratio >= 0 && config.promo_ratio <= 1;
  const levels = valid ? creditLevels(config) : [];
  return (
    <Card title={`Preview (up to ${CREDIT_LEVELS_PREVIEW_MAX} levels)`}>
      <List
        size="small"
        dataSource={levels}
        renderItem={(level) => (
          <List.Item data-testid="credit-level">
            <Typography.Text strong>{plural(level.value, 'credit')}</Typography.Text>
            <Space>
              {level.bonus_credits > 0 && <Tag color="green">+{level.bonus_credits} bonus</Tag>}
              <Typography.Text type="secondary">Total {level.total_credits}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

export function CreditLevelsPage() {
  const canEdit = useCan({ resource: 'credit-levels', action: 'edit' }).data?.can === true;
  const {
    form,
    value: config,
    loadError,
    load,
    save,
    saving,
  } = useConfigDocument<CreditLevelsConfig>('credit-levels', creditLevelsConfigSchema, {
    loadFailed: CREDIT_LEVELS.loadFailed,
    saveFailed: CREDIT_LEVELS.updateFailed,
    saved: CONFIG_SCREENS.creditLevelsUpdated,
  });
  const { control } = form;

  if (loadError || !config) return <ConfigLoading title={CREDIT_LEVELS.loadFailed} error={loadError} onRetry={load} />;

  return (
    <SchemaForm name="credit-levels" handleSubmit={form.handleSubmit} onSubmit={save} disabled={!canEdit}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Credit Levels Configuration">
            <Typography.Paragraph type="secondary">The amounts offered when an administrator adds credits to a manager.</Typography.Paragraph>
            <FormField control={control} name="minimum" label="Minimum" required>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} />
            </FormField>
            <FormField control={control} name="maximum" label="Maximum" required>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} />
            </FormField>
            <FormField control={control} name="step" label="Step" required>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} />
            </FormField>
            <FormField control={control} name="promo_enabled" label="Promo enabled" valuePropName="checked">
              <Switch />
            </FormField>
            <FormField control={control} name="promo_ratio" label="Promo ratio" required extra="Bonus credits per credit, from 0 to 1 (0.2 gives 20 bonus on 100).">
              <InputNumber min={0} max={1} step={0.01} style={{ width: '100%' }} />
            </FormField>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
              Save
            </Button>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <LevelsPreview control={control} />
        </Col>
      </Row>
    </SchemaForm>
  );
}
