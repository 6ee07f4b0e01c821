/** Form rules that several forms share. */
import type { FormRule } from 'antd';
import { FIELD_RULES } from '../../contract';

/** A number not below the field `other` (either may be empty); the item also needs `dependencies={[other]}`. */
export const notBelowRule =
  (other: string, label: string, otherLabel: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      value == null || getFieldValue(other) == null || value >= getFieldValue(other)
        ? Promise.resolve()
        : Promise.reject(new Error(FIELD_RULES.notBelow(label, otherLabel))),
  });
