import { useState } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { FieldLabel } from './FieldLabel';
import { useTranslation } from 'react-i18next';
import { useMasterData } from '../useMasterData';
import { checkFile } from './uploadLogic';

interface StoredFile { id: string; name: string; size?: number; contentType?: string }

/** A file: checked here for type and size, sniffed and stored by the server (POST /api/files). */
export function UploadField(props: FieldProps) {
  const { t } = useTranslation();
  const { md } = useMasterData();
  const ui = (props.uiSchema?.['ui:options'] ?? {}) as { accept?: string[]; maxSizeBytes?: number };
  const entity = String((props.registry.formContext as { entity?: string } | undefined)?.entity ?? '');
  const fieldPath = props.fieldPathId.path.filter((p) => typeof p === 'string').join('.');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = props.formData as StoredFile | undefined;
  const ro = props.readonly || props.disabled;
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const problem = checkFile(file, ui.accept, ui.maxSizeBytes);
    if (problem) { setError(t(`masterdata.upload.${problem.code}`, problem.params)); return; }
    setBusy(true);
    try {
      const stored = await md.upload(file, { entity, field: fieldPath });
      props.onChange(stored as never, props.fieldPathId.path, undefined, props.fieldPathId.$id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tm-md-upload" data-testid="upload-field">
      <FieldLabel props={props} />
      {value?.id && <a href={`/api/files/${encodeURIComponent(value.id)}`} target="_blank" rel="noreferrer" data-testid="upload-link">{value.name}</a>}
      {!ro && <input type="file" id={props.fieldPathId.$id} accept={ui.accept?.join(',')} disabled={busy} onChange={(e) => void onFile(e.target.files?.[0])} />}
      {error && <small className="p-error" role="alert" data-testid="upload-error">{error}</small>}
    </div>
  );
}
