/** Form rules that several forms share. */
import type { FormRule } from 'antd';
import { ENTITY_FORM, normalizeMac } from '../../contract';

/** A MAC address in any notation, when one is typed (a required rule, where wanted, comes separately). */
export const macAddressRule: FormRule = {
  validator: (_, v?: string) => (!v?.trim() || normalizeMac(v) ? Promise.resolve() : Promise.reject(new Error(ENTITY_FORM.invalidMac))),
};

