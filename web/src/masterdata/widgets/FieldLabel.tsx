import type { FieldProps } from '@rjsf/utils';

/** RJSF shows no label for a `ui:field` component: the custom fields render their own. */
export function FieldLabel({ props, htmlFor }: { props: FieldProps; htmlFor?: string }) {
  const title = props.schema.title ?? props.name;
  if (!title || props.uiSchema?.['ui:options']?.label === false) return null;
  return <label className="tm-md-field-label" htmlFor={htmlFor ?? props.fieldPathId.$id}>{title}{props.required ? ' *' : ''}</label>;
}
