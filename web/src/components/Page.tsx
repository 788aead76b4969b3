import type { ReactNode } from 'react';

/** The frame of a screen inside the shell: a title row and the content. */
export function Page({ title, icon, actions, children, narrow }: {
  title: string; icon?: string; actions?: ReactNode; children: ReactNode; narrow?: boolean;
}) {
  return (
    <section className={`tm-page${narrow ? ' tm-page--narrow' : ''}`}>
      <header className="tm-page__header">
        <h1 className="tm-page__title">
          {icon && <i className={icon} aria-hidden="true" />}
          {title}
        </h1>
        {actions && <div className="tm-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
