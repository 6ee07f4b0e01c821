/** The bar every screen shows while a parent views the panel as another user: both names and End. */
import { EyeOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Tag } from 'antd';
import { type CurrentUser, VIEW_AS } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { useEndViewAs } from './useViewAs';

export function ViewAsBanner() {
  const { user } = useCurrentUser();
  // The bar and its End button (a mutation hook) mount only while viewing: every screen renders this.
  return user?.view_as ? <ViewingBar username={user.username} viewAs={user.view_as} /> : null;
}

function ViewingBar({ username, viewAs: { viewer, can_act } }: { username: string; viewAs: NonNullable<CurrentUser['view_as']> }) {
  const end = useEndViewAs();
  return (
    <Alert
      banner
      type="warning"
      icon={<EyeOutlined />}
      data-testid="view-as-banner"
      message={
        <Space wrap>
          <span>{VIEW_AS.banner(username, viewer.username)}</span>
          {!can_act && <Tag>{VIEW_AS.readOnlyTag}</Tag>}
        </Space>
      }
      action={
        <Button size="small" onClick={() => void end()} data-testid="view-as-end">
          {VIEW_AS.end}
        </Button>
      }
    />
  );
}
