import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import { BatchPicker } from './BatchPicker';
import { ContainerLines } from './ContainerLines';
import { LocationField } from './LocationField';
import { ReferencePicker } from './ReferencePicker';
import { UploadField } from './UploadField';
import {
  CheckboxWidget, ColorWidget, DateTimeWidget, DateWidget, EmailWidget, FallbackWidget, HiddenWidget, NumberWidget,
  PhoneWidget, SelectWidget, TextareaWidget, TextWidget,
} from './scalar';
import { FIELD_WIDGETS, LINE_LIST_FIELDS, SCALAR_WIDGETS } from './keys';

/** Every widget key of the definitions, registered once: scalars as RJSF widgets… */
export const MD_WIDGETS: RegistryWidgetsType = {
  text: TextWidget,
  textarea: TextareaWidget,
  email: EmailWidget,
  phone: PhoneWidget,
  color: ColorWidget,
  select: SelectWidget,
  checkbox: CheckboxWidget,
  date: DateWidget,
  datetime: DateTimeWidget,
  number: NumberWidget,
  percent: NumberWidget,
  hidden: HiddenWidget,
  fallback: FallbackWidget,
};

/** …and object- or multi-typed values as RJSF fields. */
export const MD_FIELDS: RegistryFieldsType = {
  picker: ReferencePicker,
  autocomplete: ReferencePicker,
  location: LocationField,
  upload: UploadField,
  batch: BatchPicker,
  // Not a definition widget key: lines naming IBCs get it by their reference (keys.ts LINE_LIST_FIELDS).
  containers: ContainerLines,
};

// The key table (./keys) and the components must agree; a drift fails at module load.
for (const k of SCALAR_WIDGETS) if (!MD_WIDGETS[k]) throw new Error(`widget "${k}" has no component`);
for (const k of FIELD_WIDGETS) if (!MD_FIELDS[k]) throw new Error(`field widget "${k}" has no component`);
for (const k of Object.values(LINE_LIST_FIELDS)) if (!MD_FIELDS[k]) throw new Error(`line list "${k}" has no component`);
