/** The values before and after a change, side by side; changed fields are marked. */
import { Col, Row, Table, Tag, Typography } from 'antd';
import { AUDIT } from '../../contract';
import { Scrollable } from '../../components/DataTable';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const show = (v: unknown) => {
  if (v === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  if (v === null) return <Typography.Text type="secondary">null</Typography.Text>;
  if (typeof v === 'object') return <code style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{JSON.stringify(v, null, 2)}</code>;
  return <span style={{ overflowWrap: 'anywhere' }}>{String(v)}</span>;
};

export function ValuesSideBySide({ before, after }: { before: unknown; after: unknown }) {
  if ((before === null || isRecord(before)) && (after === null || isRecord(after)) && (before !== null || after !== null)) {
    const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
    const rows = keys.map((key) => {
      const old = before ? before[key] : undefined;
      const now = after ? after[key] : undefined;
      return { key, old, now, changed: before !== null && after !== null && JSON.stringify(old) !== JSON.stringify(now) };
    });
    return (
      <Scrollable label={AUDIT.details}>
        <Table
          size="small"
          pagination={false}
          rowKey="key"
          dataSource={rows}
          data-testid="audit-values"
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'Field', dataIndex: 'key', width: 160, render: (k: string, r) => (r.changed ? <Tag color="gold">{k}</Tag> : k) },
            { title: AUDIT.oldValues, dataIndex: 'old', render: show },
            { title: AUDIT.newValues, dataIndex: 'now', render: show },
          ]}
        />
      </Scrollable>
    );
  }
  const block = (title: string, value: unknown) => (
    <Col xs={24} md={12}>
      <Typography.Text strong>{title}</Typography.Text>
      <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' }}>
        {value === null || value === undefined ? AUDIT.noValues : JSON.stringify(value, null, 2)}
      </pre>
    </Col>
  );
  return (
    <Row gutter={16} data-testid="audit-values">
      {block(AUDIT.oldValues, before)}
      {block(AUDIT.newValues, after)}
    </Row>
  );
}
