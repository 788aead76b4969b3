import { useTranslation } from 'react-i18next';

/** The platform mark, drawn inline so it costs no request. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="tm-brand__mark">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 10h14M16 10v13M11 18l5 5 5-5" stroke="#fff" strokeWidth="2.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The custom logo of the deployment, or the platform branding (SPEC 2.1). */
export function Brand({ logo, version, inverted = false }: { logo: string | null | undefined; version?: string; inverted?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`tm-brand${inverted ? ' tm-brand--inverted' : ''}`}>
      {logo ? (
        <img src={logo} alt={t('app.name')} className="tm-brand__logo" />
      ) : (
        <>
          <BrandMark />
          <span className="tm-brand__name">{t('app.name')}</span>
        </>
      )}
      {version && <span className="tm-brand__version">{t('shell.version', { version })}</span>}
    </span>
  );
}
