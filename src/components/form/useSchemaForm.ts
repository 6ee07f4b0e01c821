/**
 * Refine's react-hook-form hooks fed by a contract schema: the panel checks each field with the same
 * zod rule and message the API answers 422 with, and Refine puts a server 422 (HttpError.errors) under
 * the fields of the form that sent it.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { type UseFormProps, type UseModalFormProps, useForm, useModalForm } from '@refinedev/react-hook-form';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

type Schema = z.ZodType<any, any>;
type Values<S extends Schema> = z.input<S> & FieldValues;

const resolverOf = <S extends Schema>(schema: S) => zodResolver(schema as never) as unknown as Resolver<Values<S>>;

export function useSchemaForm<S extends Schema, TData extends BaseRecord = BaseRecord>(
  schema: S,
  props: Omit<UseFormProps<TData, HttpError, Values<S>>, 'resolver'> = {},
) {
  return useForm<TData, HttpError, Values<S>>({ mode: 'onTouched', ...props, resolver: resolverOf(schema) });
}

export function useSchemaModalForm<S extends Schema, TData extends BaseRecord = BaseRecord>(
  schema: S,
  props: Omit<UseModalFormProps<TData, HttpError, Values<S>>, 'resolver'> = {},
) {
  return useModalForm<TData, HttpError, Values<S>>({ mode: 'onTouched', ...props, resolver: resolverOf(schema) });
}
