import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Form from '@rjsf/primereact';
import validator from '@rjsf/validator-ajv8';
import type { IChangeEvent } from '@rjsf/core';
import { deepEquals, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { toJsonSchema, toUiSchema, type FormDef } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import type { Profile as ProfileData } from '../config/types';
import { rjsfTranslator } from '../masterdata/rjsfStrings';
import { Page } from '../components/Page';
import { useProfile } from '../shell/profileContext';
import { useShell } from '../shell/shellContext';
import { Avatar, useUserIdentity } from '../shell/UserMenu';
import { useToast } from '../toasts/toast';
import type { ScreenProps } from './types';

const TEMPLATE = 'userProfile';

/** SPEC 2.3 and 3.3: the profile form, generated from the userProfile template by the engine. */
export default function Profile({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { registry, lang } = useShell();
  const { profile, loaded, save } = useProfile();
  const toast = useToast();
  const me = useUserIdentity();
  const [busy, setBusy] = useState(false);
  const template = registry.extensions[TEMPLATE];
  const translateString = useMemo(() => rjsfTranslator(t), [t]);

  const { schema, uiSchema } = useMemo(() => {
    const form: FormDef = { name: TEMPLATE, fields: template?.fields ?? [] };
    const s = { ...toJsonSchema(form, { lang }), title: undefined } as RJSFSchema;
    const ui: UiSchema = { ...toUiSchema(form, { lang }), 'ui:submitButtonOptions': { submitText: t('common.save') } };
    return { schema: s, uiSchema: ui };
  }, [template, lang, t]);

  const saved = useMemo<ProfileData>(() => ({
    notification_channel: profile?.notification_channel,
    primary_fields: { language: profile?.primary_fields?.language ?? registry.deployment.settings.languages.default ?? lang },
  }), [profile, registry.deployment.settings.languages.default, lang]);
  // RJSF rebuilds its data from `formData` whenever any prop changes (busy, the language, a profile
  // the header's language choice saved), so the form is controlled: the fields the user changed are
  // kept over the profile's until they are saved; the others follow the profile.
  const [edits, setEdits] = useState<ProfileData>({});
  const formData = useMemo<ProfileData>(() => ({ ...saved, ...edits }), [saved, edits]);
  const change = (e: IChangeEvent<ProfileData>) => {
    const next = e.formData ?? {};
    const keys = Object.keys(next) as (keyof ProfileData)[];
    setEdits(Object.fromEntries(keys.filter((k) => !deepEquals(next[k], saved[k])).map((k) => [k, next[k]])));
  };

  const submit = async (e: IChangeEvent<ProfileData>) => {
    setBusy(true);
    try {
      await save({ ...e.formData, primary_fields: { ...e.formData?.primary_fields } });
      setEdits({});
      toast({ severity: 'success', summary: t('toast.saved.summary'), detail: t('profile.saved') });
    } catch (err) {
      toast({ severity: 'error', summary: t('toast.invalidData.summary'), detail: errorText(err, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={route?.name ?? t('profile.title')} icon="pi pi-user" narrow>
      <div className="tm-card tm-profile">
        <div className="tm-profile__who">
          <Avatar photo={me.photo} letters={me.initials} size="large" />
          <div>
            <strong>{me.name}</strong>
            <span>{me.email}</span>
          </div>
        </div>
        {loaded && template && (
          <div className="tm-profile__form" data-testid="profile-form">
            <Form schema={schema} uiSchema={uiSchema} formData={formData} disabled={busy} validator={validator} onChange={change} onSubmit={submit} showErrorList={false} translateString={translateString} />
          </div>
        )}
      </div>
    </Page>
  );
}
