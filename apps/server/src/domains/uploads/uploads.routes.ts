/**
 * Routes of member/upload: POST member/upload/image takes a multipart form (field `file`,
 * field `purpose` = ID_FRONT | ID_BACK | ID_HANDHELD | PAY_QR, in either order) and answers `{ imageId }`;
 * GET member/upload/image?imageId= serves the caller's own image (never anyone else's: 404 as for an unknown id).
 * @fastify/multipart is registered here only, inside this module's encapsulated plugin, so no other route accepts
 * multipart bodies. The multipart limits: one file of at most 5 MB (spec section 9), a few short fields. The file is
 * read as it streams and refused at its first bytes when they are not a JPEG, PNG or WebP file's.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { API_PATHS, Envelope, GetImageQuery, UPLOAD_MAX_BYTES, UploadedImage } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import type { UploadsService } from './uploads.service';
import { looksLikeImage } from './image';

const TAGS = ['upload'];

/** The file and the purpose of a multipart upload; throws AppError for a body that is not one well-formed upload. */
async function readUpload(req: FastifyRequest): Promise<{ file: Buffer; purpose: string }> {
  if (!req.isMultipart()) throw new AppError('upload_no_file', 400, 'file');
  let file: Buffer | undefined;
  let purpose = '';
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file !== undefined) throw new AppError('validation_failed', 400, 'file');
        // read as it streams: a body that does not start as an image is refused at its first bytes, not read whole
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file) {
          chunks.push(chunk as Buffer);
          const before = size;
          size += (chunk as Buffer).length;
          if (before < 12 && size >= 12 && !looksLikeImage(Buffer.concat(chunks).subarray(0, 12))) throw new AppError('upload_not_image', 400, 'file');
        }
        if (part.file.truncated) throw new AppError('upload_too_large', 400, 'file');
        file = Buffer.concat(chunks);
      } else if (part.fieldname === 'purpose') {
        purpose = typeof part.value === 'string' ? part.value : '';
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('upload_too_large', 400, 'file');
    // Too many parts, files or fields, a field over its size, or a body that is not well-formed multipart.
    throw new AppError('validation_failed', 400, 'file');
  }
  if (file === undefined || file.length === 0) throw new AppError('upload_no_file', 400, 'file');
  return { file, purpose };
}

/** The upload routes over the uploads service. */
export default function uploadsRoutes({ uploads }: { uploads: UploadsService }): FastifyPluginAsync {
  return async function uploadsRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    await app.register(multipart, {
      limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 64, parts: 6, headerPairs: 20 },
    });

    app.post(
      `/api/${API_PATHS.uploadImage}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Upload an image (multipart: file, purpose): JPEG, PNG or WebP by its bytes, at most 5 MB, at least 300x300 px; re-encoded without metadata',
          consumes: ['multipart/form-data'],
          response: { 200: Envelope(UploadedImage) },
        },
      },
      async (req) => {
        const { file, purpose } = await readUpload(req);
        return ok(await uploads.upload(req.userId, purpose, file));
      },
    );

    app.get(
      `/api/${API_PATHS.uploadImage}`,
      { preHandler: requireAuth, schema: { tags: TAGS, summary: "One of the caller's own images (its bytes)", querystring: GetImageQuery } },
      async (req, reply) => {
        const img = await uploads.imageFor(req.query.imageId, { userId: req.userId });
        return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
      },
    );
  };
}
