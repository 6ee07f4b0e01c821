/** The figures above a list (its `header`): four small cards a row on wide screens, two on phones. */
import { Card, Col, Row } from 'antd';
import { Figure } from '../display/Figure';

export function StatCards({ cards, loading }: { cards: Array<[title: string, value: number | undefined]>; loading: boolean }) {
  return (
    <Row gutter={[16, 16]}>
      {cards.map(([title, value]) => (
        <Col key={title} xs={12} md={6}>
          <Card size="small">
            <Figure title={title} value={value ?? 0} loading={loading} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
