import { describe, expect, it } from 'vitest';
import { collectionSpec } from './collections';
import { loadRegistry } from './load';
import { formatProblem } from './problems';
import { catalogueBundle, fixtureSources } from '../testing/fixtures';

const t = (en: string) => ({ en, es: en, fr: en });
const lines = (over: Record<string, unknown>) => loadRegistry(fixtureSources(over)).problems.map(formatProblem);

describe('loading definitions', () => {
  it('accepts a valid set and freezes it', () => {
    const { registry, problems } = loadRegistry(fixtureSources());
    expect(problems).toEqual([]);
    expect(Object.isFrozen(registry!.entities.company.fields)).toBe(true);
  });

  it('reports malformed JSON with its file', () => {
    expect(lines({ 'schemas/entities/plant.json': '{ "name": ' })[0]).toMatch(/^schemas\/entities\/plant\.json:\/: invalid JSON/);
  });

  it('reports a meta-schema violation with file and JSON pointer, one line each', () => {
    const bad = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [{ id: 'name', label: t('Name'), type: 'strin' }] };
    expect(lines({ 'schemas/entities/plant.json': bad })).toEqual([
      expect.stringMatching(/^schemas\/entities\/plant\.json:\/fields\/0\/type: must be one of: "string", "number"/),
    ]);
  });

  it('reports a text missing a language with file, pointer and the language, wherever the text is', () => {
    const { fr: _fr, ...noFrench } = t('Name');
    const plant = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [{ id: 'name', label: noFrench, type: 'string' }] };
    const src = fixtureSources();
    const access = JSON.parse(src.find((s) => s.path === 'schemas/access.json')!.text);
    delete access.keys[0].label.es;
    expect(lines({ 'schemas/entities/plant.json': plant, 'schemas/access.json': access })).toEqual([
      'schemas/access.json:/keys/0/label: missing es (every text needs en, es, fr)',
      'schemas/entities/plant.json:/fields/0/label: missing fr (every text needs en, es, fr)',
    ]);
  });

  it('catches a misspelt reference target and suggests the right one', () => {
    const plant = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [{ id: 'company', label: t('Company'), type: 'reference', ref: 'compnay' }] };
    expect(lines({ 'schemas/entities/plant.json': plant })).toEqual([
      'schemas/entities/plant.json:/fields/0/ref: reference target "compnay" is not an entity (did you mean "company"?)',
    ]);
  });

  it('catches a compound index naming a missing field, and gives the store the ones it declares', () => {
    const plant = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [{ id: 'code', label: t('Code'), type: 'string' }, { id: 'zone', label: t('Zone'), type: 'string' }] };
    expect(lines({ 'schemas/entities/plant.json': { ...plant, compoundIndexes: [['zone', 'cod']] } })).toEqual([
      'schemas/entities/plant.json:/compoundIndexes/0/1: field "cod" does not exist in plant or its extensions',
    ]);
    expect(lines({ 'schemas/entities/plant.json': { ...plant, compoundIndexes: [['zone']] } })).toEqual([
      'schemas/entities/plant.json:/compoundIndexes/0: must NOT have fewer than 2 items',
    ]);
    const { registry } = loadRegistry(fixtureSources({ 'schemas/entities/plant.json': { ...plant, compoundIndexes: [['zone', 'code']] } }));
    expect(collectionSpec(registry!, 'plant').compoundIndexes).toEqual([['zone', 'code']]);
    expect(collectionSpec(registry!, 'company').compoundIndexes).toBeUndefined();
    // The sync state the outbox writes may lead an index of a synced entity, and only of one.
    expect(lines({ 'schemas/entities/plant.json': { ...plant, compoundIndexes: [['sync.status', 'zone']] } })).toEqual([
      'schemas/entities/plant.json:/compoundIndexes/0/0: field "sync.status" does not exist in plant or its extensions',
    ]);
    const synced = loadRegistry(fixtureSources({ 'schemas/entities/plant.json': { ...plant, sync: true, compoundIndexes: [['sync.status', 'zone']] } }));
    expect(synced.problems).toEqual([]);
    expect(collectionSpec(synced.registry!, 'plant').compoundIndexes).toEqual([['sync.status', 'zone']]);
  });

  it('catches an extension naming a missing base entity', () => {
    const ext = { name: 'x', base: 'plnt', label: t('X'), fields: [{ id: 'a', label: t('A'), type: 'string' }] };
    expect(lines({ 'schemas/extensions/x.json': ext })).toEqual(['schemas/extensions/x.json:/base: base entity "plnt" does not exist']);
  });

  it('catches a feature naming an undeclared access key', () => {
    const src = fixtureSources();
    const features = JSON.parse(src.find((s) => s.path === 'schemas/features.json')!.text);
    features.features[0].access = 'Dashbords';
    expect(lines({ 'schemas/features.json': features })).toEqual([
      'schemas/features.json:/features/0/access: access key "Dashbords" is not declared in schemas/access.json',
    ]);
  });

  it('catches i18n keys missing from en and engine messages not word for word', () => {
    const src = fixtureSources();
    const en = JSON.parse(src.find((s) => s.path === 'schemas/i18n/en.json')!.text);
    en['validation.mandatory'] = '{{label}}: value required';
    expect(lines({ 'schemas/i18n/en.json': en, 'schemas/i18n/es.json': { ...catalogueBundle('es'), 'signIn.prompt': 'Entre', 'only.here': 'x' } })).toEqual([
      'schemas/i18n/en.json:/validation.mandatory: must read "{{label}} : A value is mandatory." word for word (FORMAT_MANDATORY)',
      'schemas/i18n/es.json:/only.here: key "only.here" is not in en.json',
    ]);
  });

  // Issue 14 item 9: every string in each offered language.
  it('names the bundle and the key an offered language lacks', () => {
    const en = { ...catalogueBundle(), 'signIn.prompt': 'Please sign-in below', 'list.count_one': '{{count}} record', 'list.count_other': '{{count}} records' };
    const fr: Record<string, string> = { ...catalogueBundle('fr'), 'list.count_one': '{{count}} fiche', 'list.count_other': '{{count}} fiches' };
    delete fr['error.invalidJson'];
    const es = { ...catalogueBundle('es'), 'signIn.prompt': 'Por favor, inicie sesión', 'list.count_one': '{{count}} registro', 'list.count_many': '{{count}} de registros', 'list.count_other': '{{count}} registros' };
    expect(lines({ 'schemas/i18n/en.json': en, 'schemas/i18n/es.json': es, 'schemas/i18n/fr.json': fr })).toEqual([
      'schemas/i18n/fr.json:/error.invalidJson: key "error.invalidJson" is missing (en.json has it): the message of INVALID_JSON',
      'schemas/i18n/fr.json:/signIn.prompt: key "signIn.prompt" is missing (en.json has it)',
      'schemas/i18n/fr.json:/list.count_many: key "list.count_many" is missing (en.json has "list.count_other")',
    ]);
  });

  it('wants a counting engine message in each plural form, word for word in English', () => {
    const en: Record<string, string> = { ...catalogueBundle(), 'signIn.prompt': 'Please sign-in below' };
    delete en['import.job.rejected_one'];
    const es: Record<string, string> = { ...catalogueBundle('es'), 'signIn.prompt': 'Entre' };
    delete es['error.validationFailed_many'];
    expect(lines({ 'schemas/i18n/en.json': en, 'schemas/i18n/es.json': es })).toEqual([
      'schemas/i18n/en.json:/import.job.rejected_one: missing the message of IMPORT_REJECTED: "Nothing was imported: {{count}} row was rejected and the mode is all or nothing"',
      'schemas/i18n/es.json:/error.validationFailed_many: key "error.validationFailed_many" is missing (en.json has "error.validationFailed_other"): the message of VALIDATION_FAILED',
    ]);
  });

  it('catches a file whose name differs from the definition name', () => {
    const plant = { name: 'plants', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [{ id: 'name', label: t('Name'), type: 'string' }] };
    expect(lines({ 'schemas/entities/plant.json': plant })).toEqual(['schemas/entities/plant.json:/name: name "plants" must equal the file name "plant"']);
  });

  it('catches option defaults outside the options and reserved field ids', () => {
    const plant = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [
      { id: 'id', label: t('Id'), type: 'string' },
      { id: 'state', label: t('State'), type: 'integer', default: 2, options: [{ value: 1, label: t('Active') }] },
    ] };
    expect(lines({ 'schemas/entities/plant.json': plant })).toEqual([
      'schemas/entities/plant.json:/fields/0/id: "id" is reserved for the system',
      'schemas/entities/plant.json:/fields/1/default: default 2 is not one of the options',
    ]);
  });

  it('catches two fields sharing a label in one language, which would make an import column ambiguous', () => {
    const plant = { name: 'plant', kind: 'master', label: t('Plant'), pluralLabel: t('Plants'), fields: [
      { id: 'state', label: { en: 'State', es: 'Estado', fr: 'État' }, type: 'integer' },
      { id: 'status', label: { en: 'Status', es: 'estado ', fr: 'Statut' }, type: 'string' },
    ] };
    expect(lines({ 'schemas/entities/plant.json': plant })).toEqual([
      'schemas/entities/plant.json:/fields/1/label/es: label "estado " (es) is also field "state"\'s: an import column headed by it would be ambiguous',
    ]);
  });

  it('reports a missing required definition file', () => {
    expect(lines({ 'schemas/access.json': undefined })).toContain('schemas/access.json:/: file is missing');
  });
});
