/**
 * Routes of API key management (packages/api api-keys.ts): the users' (`/api/` + API_KEY_PATHS, behind
 * requireAuth, envelope) and the console's (`/api/` + ADMIN_API_KEY_PATHS, header x-admin-token): listing needs the
 * operator permission `view`, deleting a user's key `user_freeze` (compliance, admin: like a freeze, it cuts a user's
 * access; audited). Thin: validation by the TypeBox schemas, rules in ApiKeyService (api-keys.service.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ADMIN_API_KEY_PATHS,
  AdminApiKeysQuery,
  AdminDeleteApiKeyBody,
  API_KEY_PATHS,
  ApiKeyView,
  CreateApiKeyBody,
  CreatedApiKey,
  DeleteApiKeyBody,
  Envelope,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf, can } from '../../platform/shared/operator';
import type { ApiKeyService } from './api-keys.service';
import { mapValidation } from '../../platform/shared/validation';
import { USER_AGENT_MAX } from '../../platform/shared/auth';

const TAGS = ['apiKeys'];
const ADMIN_TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });
const NullResult = Envelope(Type.Null());

/** The codes a malformed field of the create and delete forms answers (instead of validation_failed). */
const FIELD_CODES = {
  verifyCode: 'code_invalid',
  googleCode: 'google_code_invalid',
  publicKey: 'api_key_public_key_invalid',
  ipWhitelist: 'api_key_ip_invalid',
  id: 'api_key_not_found',
} as const;

/** Where a request came from, for the security log. */
function info(req: FastifyRequest): { ip: string; userAgent: string } {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: (typeof ua === 'string' ? ua : '').slice(0, USER_AGENT_MAX) };
}

/** The API key routes over the API key service. */
export default function apiKeyRoutes({ apiKeys }: { apiKeys: ApiKeyService }): FastifyPluginAsync {
  return async function apiKeyRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth, requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const opts = { preHandler: requireAuth, attachValidation: true } as const;

    app.get(
      `/api/${API_KEY_PATHS.list}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: "The caller's API keys, newest first (never a secret)", response: { 200: Envelope(Type.Array(ApiKeyView)) } },
      },
      async (req) => ok(await apiKeys.list(req.userId)),
    );

    app.post(
      `/api/${API_KEY_PATHS.create}`,
      {
        ...opts,
        schema: {
          tags: TAGS,
          summary:
            'Create an API key (second factor: googleCode when Google is bound, else verifyCode): HMAC_SHA256 answers its secret this once; ED25519 takes a PEM public key. At most 30 keys, 30 whitelisted IPs; withdraw needs a whitelist',
          body: CreateApiKeyBody,
          response: { 200: Envelope(CreatedApiKey) },
        },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        return ok(await apiKeys.create(req.userId, req.body, info(req)));
      },
    );

    app.post(
      `/api/${API_KEY_PATHS.remove}`,
      {
        ...opts,
        schema: { tags: TAGS, summary: 'Delete one of your API keys; it stops working at once', body: DeleteApiKeyBody, response: { 200: NullResult } },
      },
      async (req) => {
        mapValidation(req, FIELD_CODES);
        await apiKeys.remove(req.userId, req.body.id, info(req));
        return ok(null);
      },
    );

    app.get(
      `/api/${ADMIN_API_KEY_PATHS.list}`,
      {
        preHandler: requireOperator('view'),
        schema: {
          tags: ADMIN_TAGS,
          summary: "A user's API keys (never a secret; the API key itself masked for roles that cannot revoke it)",
          headers: ADMIN_HEADERS,
          querystring: AdminApiKeysQuery,
          response: { 200: Envelope(Type.Array(ApiKeyView)) },
        },
      },
      // support and finance see the key masked: only the roles that may revoke it (user_freeze) need it whole
      async (req) => ok(await apiKeys.adminList(req.query.userId, { masked: !can(actorOf(req).role, 'user_freeze') })),
    );

    app.post(
      `/api/${ADMIN_API_KEY_PATHS.remove}`,
      {
        preHandler: requireOperator('user_freeze'),
        schema: {
          tags: ADMIN_TAGS,
          summary: "Delete a user's API key with a reason (audited; it stops working at once)",
          headers: ADMIN_HEADERS,
          body: AdminDeleteApiKeyBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await apiKeys.adminRemove(actorOf(req), req.body.id, req.body.reason);
        return ok(null);
      },
    );
  };
}
