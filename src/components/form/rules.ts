/** Form rules that several forms share. */
import type { FormRule } from 'antd';
import { ENTITY_FORM, FIELD_RULES, normalizeMac } from '../../contract';

/** A MAC address in any notation, when one is typed (a required rule, where wanted, comes separately). */
export const macAddressRule: FormRule = {
  validator: (_, v?: string) => (!v?.trim() || normalizeMac(v) ? Promise.resolve() : Promise.reject(new Error(ENTITY_FORM.invalidMac))),
};

/** A number not below the field `other` (either may be empty); the item also needs `dependencies={[other]}`. */
export const notBelowRule =
  (other: string, label: string, otherLabel: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      value == null || getFieldValue(other) == null || value >= getFieldValue(other)
        ? Promise.resolve()
        : Promise.reject(new Error(FIELD_RULES.notBelow(label, otherLabel))),
  });
