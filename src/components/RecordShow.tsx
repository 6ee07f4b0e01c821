/**
 * A record's fields with their labels, from the resource's entity schema: the show page of a
 * resource whose record needs nothing special. Loads the record through Refine's useShow.
 */
import { type BaseRecord, useShow } from '@refinedev/core';
import { Alert, Descriptions, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { CRUD_PAGE, type FieldInfo, fieldsInfo, humanise } from '../contract';
import { ActiveTag, dateTime } from './display';

/** A value as a table cell or a show page shows it, by its schema's kind. */
export function renderValue(name: string, info: FieldInfo, value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return '—';
  if (info.kind === 'boolean') return <ActiveTag active={value === true} labels={CRUD_PAGE.yesNo} />;
  if (name.endsWith('_at') && typeof value === 'string') return dateTime(value);
  if (typeof value === 'object') return (value as { name?: string }).name ?? JSON.stringify(value);
  return String(value);
}

export function RecordShow<T extends BaseRecord>({ resource, id, entity }: { resource: string; id: string | number; entity: z.ZodObject }) {
  const { query } = useShow<T>({ resource, id });
  const record = query.data?.data as Record<string, unknown> | undefined;
  if (query.isError) return <Alert type="error" showIcon message={query.error?.message} />;
  if (!record) return <Skeleton active />;
  return (
    <Descriptions column={1} size="small" bordered>
      {fieldsInfo(entity).map(([name, info]) => (
        <Descriptions.Item key={name} label={info.label ?? humanise(name)}>
          {renderValue(name, info, record[name])}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
