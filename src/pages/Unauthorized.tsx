import { useIsAuthenticated } from '@refinedev/core';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { PageResult } from '../components/layout/PageResult';
import { ACCESS } from '../contract';
import { SignInFrame } from './SignInFrame';

/**
 * /unauthorized: where a forbidden route sends the user. Signed in, it stands in the panel's frame and
 * leads back to the dashboard (the sign-in page would only send a signed-in user there); signed out,
 * it stands in the sign-in page's frame and leads to it.
 */
export function UnauthorizedPage() {
  const { data } = useIsAuthenticated();
  const navigate = useNavigate();
  const signedIn = data?.authenticated === true;
  const result = (
    <PageResult
      status="403"
      title={ACCESS.denied}
      subTitle={ACCESS.deniedBody}
      extra={
        <Button type="primary" onClick={() => navigate(signedIn ? '/' : '/login')}>
          {signedIn ? ACCESS.returnToDashboard : ACCESS.returnToLogin}
        </Button>
      }
    />
  );
  return signedIn ? result : <SignInFrame>{result}</SignInFrame>;
}
