/**
 * The console's content routes (CONTENT_ADMIN_PATHS of packages/api content.ts), header x-admin-token. Every role
 * with `view` reads (drafts included); `content_edit` (support, compliance, admin) creates, edits and uploads images;
 * `content_publish` (compliance, admin) publishes, unpublishes and deletes. Each change writes its audit row
 * (content.service.ts). @fastify/multipart is registered inside this plugin only, for the image upload.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import multipart from '@fastify/multipart';
import {
  AdminContentCreateBody,
  AdminContentIdBody,
  AdminContentIdQuery,
  AdminContentImageQuery,
  AdminContentItem,
  AdminContentListQuery,
  AdminContentPage,
  AdminContentUpdateBody,
  CONTENT_ADMIN_PATHS,
  ContentImageUploaded,
  Envelope,
  UPLOAD_MAX_BYTES,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { actorOf } from '../../platform/shared/operator';
import type { ContentService } from './content.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });

/** The one file of a multipart upload (field `file`); AppError for anything else. */
async function readFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError('upload_no_file', 400, 'file');
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || file !== undefined) throw new AppError('validation_failed', 400, 'file');
      file = await part.toBuffer();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('upload_too_large', 400, 'file');
    throw new AppError('validation_failed', 400, 'file');
  }
  if (file === undefined || file.length === 0) throw new AppError('upload_no_file', 400, 'file');
  return file;
}

/** The console's content routes over the content service. */
export default function contentAdminRoutes({ content }: { content: ContentService }): FastifyPluginAsync {
  return async function contentAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 2, fieldSize: 64, parts: 3, headerPairs: 20 } });
    const view = requireOperator('view');
    const edit = requireOperator('content_edit');
    const publish = requireOperator('content_publish');
    const Item = { 200: Envelope(AdminContentItem) };

    app.get(
      `/api/${CONTENT_ADMIN_PATHS.list}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Content items of a kind, drafts included, in display order',
          headers: ADMIN_HEADERS,
          querystring: AdminContentListQuery,
          response: { 200: Envelope(AdminContentPage) },
        },
      },
      async (req) => ok(await content.list(req.query.kind, req.query.parentId, req.query.page ?? 1, req.query.pageSize ?? 50)),
    );
    app.get(
      `/api/${CONTENT_ADMIN_PATHS.detail}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'One content item: its draft and its published copy',
          headers: ADMIN_HEADERS,
          querystring: AdminContentIdQuery,
          response: Item,
        },
      },
      async (req) => ok(await content.detail(req.query.id)),
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.create}`,
      {
        preHandler: edit,
        schema: {
          tags: TAGS,
          summary: 'Create a banner, notice, help category or help article as a draft',
          headers: ADMIN_HEADERS,
          body: AdminContentCreateBody,
          response: Item,
        },
      },
      async (req) => ok(await content.create(actorOf(req), req.body)),
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.update}`,
      {
        preHandler: edit,
        schema: {
          tags: TAGS,
          summary: "Replace an item's draft (the app keeps showing the published copy)",
          headers: ADMIN_HEADERS,
          body: AdminContentUpdateBody,
          response: Item,
        },
      },
      async (req) => ok(await content.update(actorOf(req), req.body)),
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.publish}`,
      {
        preHandler: publish,
        schema: { tags: TAGS, summary: 'Publish the draft: the app shows it from now on', headers: ADMIN_HEADERS, body: AdminContentIdBody, response: Item },
      },
      async (req) => ok(await content.publish(actorOf(req), req.body.id)),
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.unpublish}`,
      {
        preHandler: publish,
        schema: {
          tags: TAGS,
          summary: 'Take the published copy down (not for the fixed pages)',
          headers: ADMIN_HEADERS,
          body: AdminContentIdBody,
          response: Item,
        },
      },
      async (req) => ok(await content.unpublish(actorOf(req), req.body.id)),
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.remove}`,
      {
        preHandler: publish,
        schema: {
          tags: TAGS,
          summary: 'Delete an item (not a fixed page, not a category with articles)',
          headers: ADMIN_HEADERS,
          body: AdminContentIdBody,
          response: { 200: Envelope(Type.Null()) },
        },
      },
      async (req) => {
        await content.remove(actorOf(req), req.body.id);
        return ok(null);
      },
    );
    app.post(
      `/api/${CONTENT_ADMIN_PATHS.uploadImage}`,
      {
        preHandler: edit,
        schema: {
          tags: TAGS,
          summary: 'Upload a banner image (multipart: file): JPEG, PNG or WebP by its bytes, at most 5 MB, at least 300x300 px; re-encoded without metadata',
          headers: ADMIN_HEADERS,
          consumes: ['multipart/form-data'],
          response: { 200: Envelope(ContentImageUploaded) },
        },
      },
      async (req) => ok(await content.uploadImage(actorOf(req), await readFile(req))),
    );
    app.get(
      `/api/${CONTENT_ADMIN_PATHS.image}`,
      {
        preHandler: view,
        schema: { tags: TAGS, summary: 'An uploaded image, published or not (preview)', headers: ADMIN_HEADERS, querystring: AdminContentImageQuery },
      },
      async (req, reply) => {
        const img = await content.image(req.query.file);
        return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
      },
    );
  };
}
