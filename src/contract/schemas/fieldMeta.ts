/**
 * What a schema says about each of its fields beyond the rule: the label, the bounds, whether a value
 * is required and its default. Forms, show pages and the API's row mapping read these, so a field's
 * facts are written once, in its schema.
 */
import { z } from 'zod';

export interface FieldMeta {
  /** How forms and show pages name the field. */
  label?: string;
  /** Inclusive bounds of a number that zod cannot report itself (a preprocessed or refined number). */
  min?: number;
  max?: number;
}

/**
 * A registry of its own rather than zod's global one: the global metadata would be copied into the
 * API's JSON Schemas (/api/docs) as unknown keywords.
 */
export const fieldMeta = z.registry<FieldMeta>();

/** The schema with this metadata (a copy: shared schemas such as looseBoolean stay unlabelled). */
export const withMeta = <S extends z.ZodType>(schema: S, meta: FieldMeta): S => {
  const copy = schema.clone() as S;
  fieldMeta.add(copy, meta);
  return copy;
};

/** The schema with its label. */
export const labelled = <S extends z.ZodType>(schema: S, label: string): S => withMeta(schema, { label });

/** Text longer than this is typed into a multi-line input. */
const LONG_TEXT = 255;

export type FieldKind = 'text' | 'textarea' | 'number' | 'boolean' | 'enum' | 'other';

export interface FieldInfo {
  kind: FieldKind;
  label?: string;
  min?: number;
  max?: number;
  /** The values of an enum. */
  values?: readonly string[];
  /** The schema refuses an absent value (no default, not optional). */
  required: boolean;
  /** The `.default()`, when the schema has one. */
  initial?: unknown;
  /** The schema accepts null. */
  nullable: boolean;
}

type AnySchema = z.ZodType;
/** The parts of zod's internal definition this walk reads. */
interface SchemaDef {
  type: string;
  innerType?: AnySchema;
  defaultValue?: unknown;
  in?: AnySchema;
  out?: AnySchema;
  entries?: Record<string, string>;
  options?: AnySchema[];
}
const defOf = (s: AnySchema) => (s as unknown as { _zod: { def: SchemaDef } })._zod.def;
const finite = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);

/** A field of a schema, looked through its wrappers (optional, nullable, default, preprocess, transform). */
export function fieldInfo(schema: AnySchema): FieldInfo {
  const info: FieldInfo = { kind: 'other', required: !schema.safeParse(undefined).success, nullable: false };
  const take = (s: AnySchema) => {
    const meta = fieldMeta.get(s);
    if (meta) {
      info.label ??= meta.label;
      info.min ??= meta.min;
      info.max ??= meta.max;
    }
  };
  let s: AnySchema | undefined = schema;
  for (let depth = 0; s && depth < 20; depth++) {
    take(s);
    const def = defOf(s);
    switch (def.type) {
      case 'optional':
      case 'nullable':
        if (def.type === 'nullable') info.nullable = true;
        s = def.innerType;
        continue;
      case 'default':
      case 'prefault':
        info.initial ??= def.defaultValue;
        s = def.innerType;
        continue;
      case 'pipe':
        // z.preprocess(fn, rule) is transform -> rule; rule.transform(fn) is rule -> transform.
        s = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
        continue;
      case 'string': {
        const str = s as z.ZodString;
        info.kind = (finite(str.maxLength) ?? 0) > LONG_TEXT ? 'textarea' : 'text';
        return info;
      }
      case 'number': {
        const num = s as z.ZodNumber;
        info.kind = 'number';
        info.min ??= finite(num.minValue);
        info.max ??= finite(num.maxValue);
        return info;
      }
      case 'boolean':
        info.kind = 'boolean';
        return info;
      case 'enum':
        info.kind = 'enum';
        info.values = Object.values(def.entries as Record<string, string>);
        return info;
      case 'union':
        // A loose boolean (true/false, 1/0, their text) is a switch.
        if ((def.options as AnySchema[]).some((o) => defOf(o).type === 'boolean')) info.kind = 'boolean';
        return info;
      default:
        return info;
    }
  }
  return info;
}

/** The fields of an object schema, in their order. */
export const fieldsInfo = (schema: z.ZodObject): Array<[string, FieldInfo]> =>
  Object.entries(schema.shape as Record<string, AnySchema>).map(([name, field]) => [name, fieldInfo(field)]);

/** 'credits_required' -> 'Credits required': the label of a field whose schema names none. */
export const humanise = (name: string) => {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const plain = (info: FieldInfo): z.ZodType => {
  const base =
    info.kind === 'number' ? z.number() : info.kind === 'boolean' ? z.boolean() : info.kind === 'enum' ? z.enum(info.values as [string, ...string[]]) : z.string();
  const typed = info.nullable || (!info.required && info.initial === undefined) ? base.nullable() : base;
  return info.label ? labelled(typed, info.label) : typed;
};

/**
 * A resource as the API sends it, from its body schema: each body field as the plain value it is
 * stored as (labels kept), with the fields only the API sets (`extra`: id, timestamps, counts).
 */
export const entityOf = <B extends z.ZodRawShape, E extends z.ZodRawShape>(body: z.ZodObject<B>, extra: E) =>
  // The id first, as every answer lists it.
  z.object({ ...('id' in extra ? { id: extra.id } : {}), ...Object.fromEntries(fieldsInfo(body).map(([name, info]) => [name, plain(info)])), ...extra }) as z.ZodObject<
    { [K in keyof B]: z.ZodType<z.output<B[K]>> } & E
  >;
