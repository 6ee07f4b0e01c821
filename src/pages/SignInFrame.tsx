/** The frame of the pages a signed-out user sees: one card in the middle of the panel's background. */
import { Card, Layout } from 'antd';
import type { ReactNode } from 'react';

export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 400 }}>{children}</Card>
    </Layout>
  );
}
