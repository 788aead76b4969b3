import type { ButtonHTMLAttributes, InputHTMLAttributes } from 'react';

/**
 * Native elements wearing the PrimeReact theme's classes, for the sign-in screen: it is the
 * first thing every visitor loads, and these keep PrimeReact's component runtime (about a
 * fifth of the JavaScript) off it. Everywhere else uses the PrimeReact components.
 */
export function LiteInput({ className = '', ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`p-inputtext p-component ${className}`} />;
}

export function LiteButton({ label, icon, loading, variant, className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & {
  label: string; icon?: string; loading?: boolean; variant?: 'outlined';
}) {
  const shownIcon = loading ? 'pi pi-spin pi-spinner' : icon;
  return (
    <button
      {...props}
      className={`p-button p-component${variant === 'outlined' ? ' p-button-outlined p-button-secondary' : ''}${props.disabled ? ' p-disabled' : ''} ${className}`}
    >
      {shownIcon && <span className={`p-button-icon p-button-icon-left ${shownIcon}`} aria-hidden="true" />}
      <span className="p-button-label">{label}</span>
    </button>
  );
}

/** The markup of PrimeReact's ProgressSpinner, animated by the theme. */
export function LiteSpinner({ size = 48 }: { size?: number }) {
  return (
    <div className="p-progress-spinner" role="progressbar" style={{ width: size, height: size }}>
      <svg className="p-progress-spinner-svg" viewBox="25 25 50 50" aria-hidden="true">
        <circle className="p-progress-spinner-circle" cx="50" cy="50" r="20" fill="none" strokeWidth="4" strokeMiterlimit="10" />
      </svg>
    </div>
  );
}
