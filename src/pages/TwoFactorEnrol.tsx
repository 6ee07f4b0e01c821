/**
 * The one screen of a user whose role requires two-factor sign-in and who has none yet: the API
 * refuses it everything else until it has set one up (or signed out).
 */
import { useLogout } from '@refinedev/core';
import { Alert, Button, Space } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { TWO_FACTOR } from '../contract';
import { TwoFactorCard } from '../features/twoFactor';
import { useCurrentUser } from '../providers/identity';
import { SignInFrame } from './SignInFrame';

export function TwoFactorEnrolPage() {
  const { user } = useCurrentUser();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  // Enrolled (or never held to it): the panel itself.
  if (user && !user.two_factor_enrol && !user.two_factor) return <Navigate to="/" replace />;
  return (
    <SignInFrame>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Alert type="warning" showIcon message={TWO_FACTOR.required} />
        <TwoFactorCard onEnrolled={() => navigate('/', { replace: true })} />
        <Button block onClick={() => logout()}>
          Sign Out
        </Button>
      </Space>
    </SignInFrame>
  );
}
