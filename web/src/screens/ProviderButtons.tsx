import { useTranslation } from 'react-i18next';
import { localize } from '../../../engine/src/index';
import { useLanguage } from '../i18n/useLanguage';
import { LiteButton } from '../components/Lite';
import type { PublicSettings } from '../config/types';

const ICONS: Record<string, string> = {
  google: 'pi pi-google', github: 'pi pi-github', facebook: 'pi pi-facebook', twitter: 'pi pi-twitter', saml: 'pi pi-building',
};

/** One button per configured provider (SPEC 2.2); a SAML provider shows its configured label. */
export function ProviderButtons({ providers, disabled, onChoose }: {
  providers: PublicSettings['signIn']['providers'];
  disabled: boolean;
  onChoose: (providerId: string) => void;
}) {
  const { t } = useTranslation();
  const [lang] = useLanguage();
  if (providers.length === 0) return null;
  return (
    <div className="tm-providers">
      <div className="tm-divider" role="separator"><span>{t('signIn.or')}</span></div>
      <div className="tm-providers__grid">
        {providers.map((p) => {
          const name = p.label ? localize(p.label, lang) : t(`signIn.provider.${p.id}`, { defaultValue: p.id });
          return (
            <LiteButton
              key={p.id} type="button" variant="outlined" className="tm-provider" disabled={disabled}
              icon={ICONS[p.id] ?? 'pi pi-sign-in'} label={name} aria-label={t('signIn.withProvider', { provider: name })}
              title={t('signIn.withProvider', { provider: name })}
              data-provider={p.id} onClick={() => onChoose(p.id)}
            />
          );
        })}
      </div>
    </div>
  );
}
