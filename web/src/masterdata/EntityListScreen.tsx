import './masterdata.css';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Page } from '../components/Page';
import type { ScreenProps } from '../screens/types';
import { useShell } from '../shell/shellContext';
import type { Rec } from './api';
import { EntityScreens } from './EntityScreens';
import { entityActions } from './entityActions';
import { useMasterData } from './useMasterData';

/**
 * A feature whose route names an `entity` (`/user-management`, `/group-management`): the
 * same generated list and form, plus the actions the definitions call for (users: the
 * invitation mail after creating one, and reset password; both through the administrators'
 * POST /api/auth/send-link; groups and templates are fields of the form).
 */
export default function EntityListScreen({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { registry } = useShell();
  const { md } = useMasterData();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const entity = route?.entity ?? '';
  const def = registry.entities[entity];
  const actions = entityActions(def);

  const sendLink = useCallback((email: string, purpose: 'invite' | 'reset') => {
    setNotice(null);
    return md.sendLink(email, purpose).then(
      () => setNotice({ ok: true, text: t(purpose === 'invite' ? 'masterdata.user.inviteSent' : 'masterdata.user.resetSent', { email }) }),
      (e: Error) => setNotice({ ok: false, text: e.message }),
    );
  }, [md, t]);

  const rowActions = actions.resetPassword
    ? (r: Rec) => typeof r.email === 'string' && <Button icon="pi pi-key" text rounded aria-label={t('masterdata.user.reset')} title={t('masterdata.user.reset')} data-testid="row-reset-password" onClick={() => void sendLink(r.email as string, 'reset')} />
    : undefined;
  const afterCreate = actions.invite
    ? async (r: Rec) => { if (typeof r.email === 'string') await sendLink(r.email, 'invite'); }
    : undefined;

  if (!def) return <Page title={route?.name ?? ''}><p role="alert">{t('masterdata.unknownEntity', { entity })}</p></Page>;
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      {notice && <div className={`p-message ${notice.ok ? 'p-message-info' : 'p-message-error'}`} role={notice.ok ? 'status' : 'alert'} data-testid="entity-notice">{notice.text}</div>}
      <EntityScreens entity={entity} basePath={route?.path ?? ''} rowActions={rowActions} afterCreate={afterCreate} />
    </Page>
  );
}
