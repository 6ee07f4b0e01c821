import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useNavigate } from 'react-router';

/** Back to the previous page, or to `fallback` when the page was opened directly. */
export function BackButton({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  const hasHistory = typeof window !== 'undefined' && ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <Button icon={<ArrowLeftOutlined />} onClick={() => (hasHistory ? navigate(-1) : navigate(fallback))}>
      Back
    </Button>
  );
}
