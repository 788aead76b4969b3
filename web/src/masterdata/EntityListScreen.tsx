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
 * same generated list and form, plus the actions the definitions call for (users: invite
 * and reset password; groups and templates are fields of the form).
 */
export default function EntityListScreen({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { registry } = useShell();
  const { md } = useMasterData();
  const [notice, setNotice] = useState<string | null>(null);
  const entity = route?.entity ?? '';
  const def = registry.entities[entity];
  const actions = entityActions(def);

  const resetPassword = useCallback((email: string) => {
    setNotice(null);
    md.requestPasswordReset(email).then(() => setNotice(t('masterdata.user.resetSent', { email })), (e: Error) => setNotice(e.message));
  }, [md, t]);

  const rowActions = actions.resetPassword
    ? (r: Rec) => typeof r.email === 'string' && <Button icon="pi pi-key" text rounded aria-label={t('masterdata.user.reset')} title={t('masterdata.user.reset')} data-testid="row-reset-password" onClick={() => resetPassword(r.email as string)} />
    : undefined;
  const afterCreate = actions.invite
    ? async (r: Rec) => { if (typeof r.email === 'string') await md.requestPasswordReset(r.email); }
    : undefined;

  if (!def) return <Page title={route?.name ?? ''}><p role="alert">{t('masterdata.unknownEntity', { entity })}</p></Page>;
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      {notice && <div className="p-message p-message-info" role="status" data-testid="entity-notice">{notice}</div>}
      <EntityScreens entity={entity} basePath={route?.path ?? ''} rowActions={rowActions} afterCreate={afterCreate} />
    </Page>
  );
}
