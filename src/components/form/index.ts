export { FormField, FormNameContext, fieldId } from './FormField';
export { SchemaForm } from './SchemaForm';
export { ModalForm } from './ModalForm';
export { useSchemaForm, useSchemaModalForm } from './useSchemaForm';
export { type FieldDef, type FieldOverrides, type FormMode, FieldList, dateInput, fieldOf, fieldsOf, initialValues, schemaField } from './fields';
export { firstErrorMessage, setServerErrors } from './serverErrors';
export { requiredField } from './requiredField';
export { MONTH_PRESETS, MonthsInput } from './MonthsInput';
