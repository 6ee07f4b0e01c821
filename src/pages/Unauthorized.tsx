import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { ACCESS } from '../contract';

/** /unauthorized (spec 6): where a forbidden route sends the user. */
export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <Result
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
