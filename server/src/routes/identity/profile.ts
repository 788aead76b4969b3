import type { FastifyInstance } from 'fastify';
import { compileForm, type FormDef, type Registry } from '../../../../engine/src/index';
import { ApiError } from '../../apiError';
import type { StoredDoc } from '../../store/types';
import { tags, type IdentityContext } from './context';

/** The user-profile template of SPEC 3.3 as a form the engine validates. */
function profileForm(reg: Registry): FormDef {
  const ext = reg.extensions.userProfile;
  if (!ext) throw new Error('schemas/extensions/userProfile.json is missing: the profile routes need it');
  return { name: 'profile', fields: ext.fields };
}

function defaultLanguage(reg: Registry): string {
  return reg.deployment.settings.languages.default ?? 'en';
}

/** The profile as GET answers it: the template's fields plus who the user is. */
function present(reg: Registry, user: StoredDoc): Record<string, unknown> {
  return {
    primary_fields: { language: typeof user.language === 'string' && user.language ? user.language : defaultLanguage(reg) },
    notification_channel: typeof user.notification_channel === 'string' && user.notification_channel ? user.notification_channel : 'local',
    display_name: user.display_name ?? '',
    email: user.email ?? '',
    photo: user.photo ?? null,
  };
}

const putBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    primary_fields: { type: 'object' },
    notification_channel: {},
  },
} as const;

/** SPEC 7: GET/PUT auth/profile. Only the template's fields change; who the user is stays as it is. */
export async function profileRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const form = profileForm(ctx.registry);
  const validate = compileForm(form);

  const load = async (userId: string): Promise<StoredDoc> => {
    const user = await ctx.store.get('user', userId);
    if (!user) throw new ApiError('UNAUTHENTICATED');
    return user;
  };

  app.get('/api/auth/profile', { config: { access: null }, schema: { tags, summary: 'The signed-in user\'s profile' } }, async (request) => ({
    detail: present(ctx.registry, await load(request.principal!.userId)),
  }));

  app.put('/api/auth/profile', {
    config: { access: null },
    schema: { tags, summary: 'Save language and notification channel (validated with the userProfile template)', body: putBody },
  }, async (request) => {
    const user = await load(request.principal!.userId);
    const body = request.body as Record<string, unknown>;
    // The web sends back what GET gave it; display name, e-mail and photo are not the profile's to change.
    const input = { notification_channel: body.notification_channel, primary_fields: body.primary_fields };
    const result = validate(input);
    const errors = result.messages.filter((m) => m.severity === 'error' || m.code === 'FORMAT_UNKNOWN_FIELD');
    if (!result.success || errors.length > 0) {
      throw new ApiError('VALIDATION_FAILED', { entity: 'profile', count: errors.length }, errors.map((m) => ({ field: m.field, message: m.message, code: m.code })));
    }
    const value = result.value as { notification_channel: string; primary_fields: { language: string } };
    const saved = await ctx.store.patch('user', user.id, {
      language: value.primary_fields.language,
      notification_channel: value.notification_channel,
      updatedAt: new Date(ctx.now()).toISOString(),
      updatedBy: user.id,
    });
    return { detail: present(ctx.registry, saved) };
  });
}
