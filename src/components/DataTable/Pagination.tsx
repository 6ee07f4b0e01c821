/** First, previous, up to 5 page buttons, next, last, 'Page X of Y', and the page-size choice. */
import { DoubleLeftOutlined, DoubleRightOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Select, Space, Typography } from 'antd';
import { MAX_PAGE_BUTTONS, PAGE_SIZES, grouped } from '../../contract';
import type { ListPage } from '../../providers/dataProvider';

/** The window of page numbers around the current page, at most MAX_PAGE_BUTTONS wide. */
export function pageWindow(current: number, pageCount: number, width: number = MAX_PAGE_BUTTONS): number[] {
  const count = Math.max(1, pageCount);
  const size = Math.min(width, count);
  const start = Math.min(Math.max(1, current - Math.floor(size / 2)), count - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}

/**
 * The total and the page count of a list page as the data provider reads it. Past the API's exact
 * count the total is a lower bound, and the pages run at least to the last page the API named.
 */
export function pagingOf(page: Partial<ListPage> | undefined, pageSize: number): Pick<PaginationProps, 'total' | 'totalExact' | 'pageCount'> {
  const total = page?.total ?? 0;
  const totalExact = page?.totalExact !== false;
  const counted = Math.max(1, Math.ceil(total / pageSize));
  return { total, totalExact, pageCount: totalExact ? counted : Math.max(counted, page?.lastPage ?? counted) };
}

export interface PaginationProps {
  current: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** False when `total` is a lower bound (the list has more rows). */
  totalExact?: boolean;
  pageSizes?: readonly number[];
  onChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
}

export function Pagination({ current, pageCount, pageSize, total, totalExact = true, pageSizes = PAGE_SIZES, onChange, onPageSizeChange }: PaginationProps) {
  const last = Math.max(1, pageCount);
  return (
    <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginTop: 16 }} data-testid="pagination">
      <Space>
        <Typography.Text type="secondary">Rows per page</Typography.Text>
        <Select
          size="small"
          value={pageSize}
          aria-label="Rows per page"
          options={pageSizes.map((n) => ({ value: n, label: String(n) }))}
          onChange={onPageSizeChange}
          style={{ width: 72 }}
        />
        <Typography.Text type="secondary">{totalExact ? `${total} total` : `More than ${grouped(total)}`}</Typography.Text>
      </Space>
      <Space size={4} wrap>
        <Button size="small" aria-label="First page" icon={<DoubleLeftOutlined />} disabled={current <= 1} onClick={() => onChange(1)} />
        <Button size="small" aria-label="Previous page" icon={<LeftOutlined />} disabled={current <= 1} onClick={() => onChange(current - 1)} />
        {pageWindow(current, last).map((page) => (
          <Button key={page} size="small" type={page === current ? 'primary' : 'default'} onClick={() => onChange(page)}>
            {page}
          </Button>
        ))}
        <Button size="small" aria-label="Next page" icon={<RightOutlined />} disabled={current >= last} onClick={() => onChange(current + 1)} />
        <Button size="small" aria-label="Last page" icon={<DoubleRightOutlined />} disabled={current >= last} onClick={() => onChange(last)} />
        <Typography.Text style={{ marginLeft: 8 }}>
          Page {Math.min(current, last)} of {last}
        </Typography.Text>
      </Space>
    </Space>
  );
}
