import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { initials } from '../../../engine/src/index';
import type { SessionUser } from '../config/types';
import { useAuth } from '../auth/auth';
import { useAppNavigate } from '../frame/navigation';
import { useProfile } from './profileContext';
import { useShell } from './shellContext';

function photoUrl(photo: SessionUser['photo']): string | null {
  if (typeof photo === 'string' && photo) return photo;
  if (photo && typeof photo === 'object' && typeof photo.url === 'string') return photo.url;
  return null;
}

/** Who is signed in, with the photo or the initials, and the user menu of SPEC 2.1. */
export function useUserIdentity() {
  const { session } = useAuth();
  const { profile } = useProfile();
  const { registry } = useShell();
  const name = profile?.display_name || session?.user?.display_name || '';
  const email = profile?.email || session?.user?.email || '';
  return {
    name, email,
    photo: photoUrl(profile?.photo ?? session?.user?.photo ?? null),
    initials: initials(name, email, registry.deployment.settings.initialsMaxLetters ?? 2),
  };
}

export function Avatar({ photo, letters, size = 'normal' }: { photo: string | null; letters: string; size?: 'normal' | 'large' }) {
  return (
    <span className={`tm-avatar tm-avatar--${size}`} data-testid="avatar" aria-hidden="true">
      {photo ? <img src={photo} alt="" /> : letters}
    </span>
  );
}

export function UserMenu() {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const navigate = useAppNavigate();
  const me = useUserIdentity();
  const menu = useRef<Menu>(null);
  const items: MenuItem[] = [
    {
      template: () => (
        <div className="tm-usermenu__header">
          <Avatar photo={me.photo} letters={me.initials} size="large" />
          <div className="tm-usermenu__who">
            <strong data-testid="user-name">{me.name}</strong>
            <span data-testid="user-email">{me.email}</span>
          </div>
        </div>
      ),
    },
    { separator: true },
    { label: t('userMenu.profile'), icon: 'pi pi-user', command: () => navigate('/profile') },
    { label: t('userMenu.terms'), icon: 'pi pi-file', command: () => navigate('/terms-and-conditions') },
    { separator: true },
    {
      label: t('userMenu.logout'), icon: 'pi pi-sign-out', className: 'tm-usermenu__logout',
      command: () => {
        navigate('/', { replace: true });
        void signOut();
      },
    },
  ];
  return (
    <>
      <button
        type="button" className="tm-header__user" aria-haspopup="menu" aria-controls="tm-user-menu"
        data-testid="user-button" onClick={(e) => menu.current?.toggle(e)}
      >
        <span className="tm-visually-hidden">{t('userMenu.label')}: </span>
        <Avatar photo={me.photo} letters={me.initials} />
        <span className="tm-header__username">{me.name || me.email}</span>
        <i className="pi pi-angle-down" aria-hidden="true" />
      </button>
      <Menu model={items} popup ref={menu} id="tm-user-menu" popupAlignment="right" className="tm-usermenu" />
    </>
  );
}
