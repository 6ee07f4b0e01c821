import { Result } from 'antd';
import { Link } from 'react-router';
import { ACCESS } from '../contract';

/** Any other path (spec 2). */
export function NotFoundPage() {
  return <Result status="404" title={ACCESS.notFound} extra={<Link to="/">{ACCESS.returnToDashboard}</Link>} />;
}
