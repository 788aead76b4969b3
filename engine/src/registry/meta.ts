import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import common from '../../../schemas/meta/common.schema.json';
import entity from '../../../schemas/meta/entity.schema.json';
import extension from '../../../schemas/meta/extension.schema.json';
import features from '../../../schemas/meta/features.schema.json';
import access from '../../../schemas/meta/access.schema.json';
import deployment from '../../../schemas/meta/deployment.schema.json';
import i18n from '../../../schemas/meta/i18n.schema.json';
import report from '../../../schemas/meta/report.schema.json';
import dashboard from '../../../schemas/meta/dashboard.schema.json';
import workflow from '../../../schemas/meta/workflow.schema.json';
import mobile from '../../../schemas/meta/mobile.schema.json';
import { LANGS } from '../text';

export type DefinitionKind = 'entity' | 'extension' | 'features' | 'access' | 'deployment' | 'i18n' | 'report' | 'workflow' | 'dashboard' | 'mobile';

const META: Record<DefinitionKind, object> = { entity, extension, features, access, deployment, i18n, report, workflow, dashboard, mobile };

let validators: Record<DefinitionKind, ValidateFunction> | undefined;

/** Meta-schemas are compiled once per process, on first use. */
export function metaValidator(kind: DefinitionKind): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    addFormats(ajv);
    ajv.addSchema(common);
    validators = Object.fromEntries(
      (Object.keys(META) as DefinitionKind[]).map((k) => [k, ajv.compile(META[k])]),
    ) as Record<DefinitionKind, ValidateFunction>;
  }
  return validators[kind];
}

/** One readable line per ajv error; `if` wrappers are dropped because their `then` says it. */
export function describeMetaErrors(errors: ErrorObject[] | null | undefined): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue;
    let message: string;
    let pointer = e.instancePath || '/';
    switch (e.keyword) {
      case 'additionalProperties':
        pointer = `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`;
        message = `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
        break;
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        // A text missing a language is the commonest slip when adding a label: say which language.
        message = e.schemaPath.endsWith('/localText/required')
          ? `missing ${missing} (every text needs ${LANGS.join(', ')})`
          : `missing required property "${missing}"`;
        break;
      }
      case 'enum':
        message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'const':
        message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
        break;
      default:
        message = e.message ?? e.keyword;
    }
    const line = `${pointer} ${message}`;
    if (!seen.has(line)) {
      seen.add(line);
      out.push({ pointer, message });
    }
  }
  return out;
}
