import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefTitles } from '../../../engine/src/list/index';
import type { FindOptions } from '../store/types';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';

let h: PluginHarness;
let admin: Record<string, string>;
const groupIds: string[] = [];
let orgId = '';

beforeAll(async () => {
  h = await startWithPlugins(() => []);
  admin = await h.userWith(['superadmin']);
  for (const name of ['North Hub', 'South Hub', 'West Hub']) groupIds.push((await h.store.insert('group', { name, access: ['Reports'], state: 1 })).id);
  orgId = (await h.store.insert('organisation', { name: 'Titles Org', providers: ['email'], allowed_domains: [], state: 1 })).id;
  await h.store.insertMany('user', Array.from({ length: 12 }, (_, i) => ({
    email: `titles${i}@titles.test`, display_name: `Titles ${String(i).padStart(2, '0')}`, state: 1,
    access: [], templates: [], profiles: [],
    groups: i === 11 ? [groupIds[0], 'gone-group'] : [groupIds[i % 3], groupIds[(i + 1) % 3]],
    ...(i % 2 ? { organisation: orgId } : {}),
  })) as never);
});
afterAll(async () => h?.close());

type ListBody = { data: Record<string, unknown>[]; total: number; titles?: RefTitles };

async function list(query: string): Promise<ListBody> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/user?${query}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListBody;
}

describe('list API: titles of referenced records', () => {
  it('answers, with titles=true, the title of every record the page refers to, by target entity then id', async () => {
    const body = await list('q=titles&sort=display_name&titles=true');
    expect(body.data).toHaveLength(12);
    expect(body.titles?.group).toEqual({ [groupIds[0]]: 'North Hub', [groupIds[1]]: 'South Hub', [groupIds[2]]: 'West Hub' });
    expect(body.titles?.organisation).toEqual({ [orgId]: 'Titles Org' });
    // An id that names no record is left out, so the list shows it as it is.
    expect(Object.keys(body.titles?.group ?? {})).not.toContain('gone-group');
    // The records themselves still hold the ids.
    expect(body.data[0].groups).toEqual([groupIds[0], groupIds[1]]);
  });

  it('looks the titles up once per target entity, whatever the number of rows and references', async () => {
    const finds: string[] = [];
    const original = h.store.find.bind(h.store);
    h.store.find = (coll: string, o?: FindOptions) => { finds.push(coll); return original(coll, o); };
    try {
      await list('q=titles&titles=true');
    } finally {
      h.store.find = original;
    }
    expect(finds.filter((c) => c === 'group')).toHaveLength(1);
    expect(finds.filter((c) => c === 'organisation')).toHaveLength(1);
    expect(finds.filter((c) => c !== 'user' && c !== 'group' && c !== 'organisation' && c !== 'session')).toEqual([]);
  });

  it('answers no titles unless asked, and only titles for the page shown', async () => {
    expect((await list('q=titles')).titles).toBeUndefined();
    const page = await list('q=titles&sort=display_name&pageSize=1&titles=true');
    expect(page.titles?.group).toEqual({ [groupIds[0]]: 'North Hub', [groupIds[1]]: 'South Hub' });
    expect(page.titles?.organisation).toBeUndefined();
  });

  it('documents the option and the answer in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, { get: { parameters: { name: string; description?: string }[]; responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> } }> };
    const get = doc.paths['/api/v3/masterdata/company'].get;
    expect(get.parameters.find((p) => p.name === 'titles')?.description).toContain('title');
    expect(Object.keys(get.responses['200'].content['application/json'].schema.properties)).toEqual(['data', 'total', 'page', 'pageSize', 'titles']);
  });
});
