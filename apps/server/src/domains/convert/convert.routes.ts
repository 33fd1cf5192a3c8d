/**
 * Routes of convert (packages/api earn.ts EARN_PATHS, convert part): getPairs public; quote and confirm behind
 * requireAuth. Thin: validation by the shared TypeBox schemas, rules in ConvertService; a refusal naming a minimum or
 * a step carries its values into the message.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ConvertConfirmBody, ConvertPairs, ConvertQuote, ConvertQuoteBody, ConvertResult, EARN_PATHS, Envelope } from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import type { ConvertService } from './convert.service';

const TAGS = ['convert'];

/** The convert routes over the convert service. */
export default function convertRoutes({ convert }: { convert: ConvertService }): FastifyPluginAsync {
  return async function convertRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    // A refusal that names the value to meet (the minimum to convert, the market's step or minimum order value:
    // AppError.params) is answered here with those values; every other error goes on to the app's handler (app.ts),
    // which renders a code and a field only.
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });

    app.get(
      `/api/${EARN_PATHS.convertPairs}`,
      { schema: { tags: TAGS, summary: 'Coins and markets convert offers, with their taker fee', response: { 200: Envelope(ConvertPairs) } } },
      async () => ok(convert.pairs()),
    );

    app.post(
      `/api/${EARN_PATHS.convertQuote}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'A quote from your SPOT account at the order book, the amount received guaranteed for 10 seconds',
          body: ConvertQuoteBody,
          response: { 200: Envelope(ConvertQuote) },
        },
      },
      async (req) => ok(await convert.quote(req.userId, req.body)),
    );

    app.post(
      `/api/${EARN_PATHS.convertConfirm}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Convert at your quote: a market order that must give at least the quoted amount, else nothing changes',
          body: ConvertConfirmBody,
          response: { 200: Envelope(ConvertResult) },
        },
      },
      async (req) => ok(await convert.confirm(req.userId, req.body.quoteId)),
    );
  };
}
