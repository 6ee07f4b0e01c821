import { Link } from 'react-router';
import { PageResult } from '../components/layout/PageResult';
import { ACCESS } from '../contract';

/** Any other path. */
export function NotFoundPage() {
  return <PageResult status="404" title={ACCESS.notFound} extra={<Link to="/">{ACCESS.returnToDashboard}</Link>} />;
}
