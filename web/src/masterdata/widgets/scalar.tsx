import type { WidgetProps } from '@rjsf/utils';
import { withDeferredCommit } from './deferred';

/** Scalar widgets: thin wrappers over the theme's widgets, keyed by the definitions' widget names. */
function delegate(name: string, extra?: (p: WidgetProps) => Partial<WidgetProps>) {
  function Delegated(props: WidgetProps) {
    const W = props.registry.widgets[name];
    return <W {...props} {...extra?.(props)} />;
  }
  Delegated.displayName = `Md(${name})`;
  return Delegated;
}

export const TextWidget = withDeferredCommit(delegate('TextWidget'));
export const TextareaWidget = withDeferredCommit(delegate('TextareaWidget'));
export const EmailWidget = withDeferredCommit(delegate('TextWidget', (p) => ({ options: { ...p.options, inputType: 'email' } })));
export const PhoneWidget = withDeferredCommit(delegate('TextWidget', (p) => ({ options: { ...p.options, inputType: 'tel' } })));
export const ColorWidget = delegate('ColorWidget');
export const SelectWidget = delegate('SelectWidget');
export const CheckboxWidget = delegate('CheckboxWidget');
export const HiddenWidget = delegate('HiddenWidget');
export const DateWidget = delegate('TextWidget', (p) => ({ options: { ...p.options, inputType: 'date' }, value: typeof p.value === 'string' ? p.value.slice(0, 10) : p.value }));
export const DateTimeWidget = delegate('TextWidget', (p) => ({
  options: { ...p.options, inputType: 'datetime-local' },
  value: typeof p.value === 'string' ? p.value.slice(0, 16) : p.value,
  onChange: (v: unknown) => p.onChange(typeof v === 'string' && v ? new Date(v).toISOString() : undefined),
}));

/** Numbers: a step from the field's fraction digits (GHG: 0.01) and its unit beside the input. */
function NumberInput(props: WidgetProps) {
  const W = props.registry.templates.BaseInputTemplate;
  const digits = typeof props.options.fractionDigits === 'number' ? props.options.fractionDigits : undefined;
  const unit = props.options.widget === 'percent' ? '%' : typeof props.options.unit === 'string' ? props.options.unit : undefined;
  const step = digits === undefined ? 'any' : digits === 0 ? 1 : Number((10 ** -digits).toFixed(digits));
  return (
    <span className="tm-md-number" data-unit={unit ?? ''}>
      <W {...props} type="number" options={{ ...props.options, inputType: 'number', step }} />
      {unit && <span className="tm-md-unit">{unit}</span>}
    </span>
  );
}

/** The explicit fallback for a widget name nobody registered: a text input that says so. */
export function FallbackWidget(props: WidgetProps) {
  const W = props.registry.widgets.TextWidget;
  return <span data-widget-fallback={String(props.options.widget ?? '')}><W {...props} /></span>;
}

export const NumberWidget = withDeferredCommit(NumberInput);
