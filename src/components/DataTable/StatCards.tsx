/** The figures above a list (its `header`): four small cards a row on wide screens, two on phones. */
import { Card, Col, Row } from 'antd';
import { Figure } from '../display/Figure';

/**
 * While loading, each card keeps its title and a skeleton stands in the figure's line, so the cards
 * are the height they keep once the figures arrive and the list below does not move (a loading
 * Card or Statistic draws a taller skeleton of its own).
 */
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
