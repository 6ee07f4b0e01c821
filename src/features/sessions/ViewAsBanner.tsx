/** The bar every screen shows while a parent views the panel as another user: both names and End. */
import { EyeOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Tag } from 'antd';
import { VIEW_AS } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { useEndViewAs } from './useViewAs';

export function ViewAsBanner() {
  const { user } = useCurrentUser();
  const end = useEndViewAs();
  if (!user?.view_as) return null;
  const { viewer, can_act } = user.view_as;
  return (
    <Alert
      banner
      type="warning"
      icon={<EyeOutlined />}
      data-testid="view-as-banner"
      message={
        <Space wrap>
          <span>{VIEW_AS.banner(user.username, viewer.username)}</span>
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
