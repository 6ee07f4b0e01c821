import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { PageResult } from '../components/layout/PageResult';
import { ACCESS } from '../contract';

/** /unauthorized: where a forbidden route sends the user. */
export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <PageResult
      status="403"
      title={ACCESS.denied}
      subTitle={ACCESS.deniedBody}
      extra={
        <Button type="primary" onClick={() => navigate('/login')}>
          {ACCESS.returnToLogin}
        </Button>
      }
    />
  );
}
