/**
 * Routes of asset/wallet (API_PATHS getCoins ... deleteAddress; schemas in packages/api wallet.ts):
 * getCoins is public, every other route is behind requireAuth and about the caller's own wallet only. Thin: the
 * rules are WalletService's (wallet.service.ts). POST bodies as JSON or form.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AddAddressBody,
  AddressBook,
  AddressBookEntry,
  API_PATHS,
  CancelWithdrawBody,
  CoinChainQuery,
  DeleteAddressBody,
  DepositAddress,
  Envelope,
  RecordDetail,
  RecordDetailQuery,
  RecordsPage,
  RecordsQuery,
  TransferBody,
  TransferRecord,
  WalletCoins,
  WithdrawBody,
  WithdrawInfo,
  WithdrawRecord,
} from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import type { WalletService } from './wallet.service';

const TAGS = ['wallet'];

/** The app's wallet routes over the wallet service. */
export default function walletRoutes({ wallet }: { wallet: WalletService }): FastifyPluginAsync {
  return async function walletRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts

    // A refusal that names the value to meet (the coin's minimum or maximum, the allowed decimals, the lock's end, the
    // transaction password lock's minutes: AppError.params) is answered here with it; every other error goes on to the
    // app's handler (app.ts), which renders a code and a field only.
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });

    app.get(
      `/api/${API_PATHS.getCoins}`,
      {
        schema: {
          tags: TAGS,
          summary: 'Every coin with its networks and their rules (deposit and withdrawal minimums, fee, confirmations); public',
          response: { 200: Envelope(WalletCoins) },
        },
      },
      async () => ok(wallet.coins()),
    );

    app.get(
      `/api/${API_PATHS.getDepositAddress}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: "The caller's deposit address of a coin on a network (EIP-55); chain_not_available where the deployment has none",
          querystring: CoinChainQuery,
          response: { 200: Envelope(DepositAddress) },
        },
      },
      async (req) => ok(wallet.depositAddress(req.userId, req.query)),
    );

    app.get(
      `/api/${API_PATHS.getWithdrawInfo}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'What the withdraw form needs: available, limits, fee, daily limit and use, verification, second factors, lock',
          querystring: CoinChainQuery,
          response: { 200: Envelope(WithdrawInfo) },
        },
      },
      async (req) => ok(await wallet.withdrawInfo(req.userId, req.query)),
    );

    app.post(
      `/api/${API_PATHS.withdraw}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary:
            'Withdraw to an address (amount includes the fee): verified users, transaction password, TOTP when bound, VERIFY code; held at once; idempotent by clientId',
          body: WithdrawBody,
          response: { 200: Envelope(WithdrawRecord) },
        },
      },
      async (req) => ok(await wallet.withdraw(req.userId, req.body, requestLang(req))),
    );

    app.post(
      `/api/${API_PATHS.cancelWithdraw}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Cancel your withdrawal still under review (the hold is released)',
          body: CancelWithdrawBody,
          response: { 200: Envelope(WithdrawRecord) },
        },
      },
      async (req) => ok(await wallet.cancelWithdraw(req.userId, req.body.id, requestLang(req))),
    );

    app.post(
      `/api/${API_PATHS.transfer}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Move available funds between two of your accounts (contract and OTC hold USDT only); free; idempotent by clientId',
          body: TransferBody,
          response: { 200: Envelope(TransferRecord) },
        },
      },
      async (req) => ok(await wallet.transfer(req.userId, req.body)),
    );

    app.get(
      `/api/${API_PATHS.getRecords}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Your deposits, withdrawals or transfers, newest first, by page',
          querystring: RecordsQuery,
          response: { 200: Envelope(RecordsPage) },
        },
      },
      async (req) => ok(await wallet.records(req.userId, req.query, requestLang(req))),
    );

    app.get(
      `/api/${API_PATHS.getRecordDetail}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'One of your records (tx hash, confirmations, addresses, fee, status, explorer link)',
          querystring: RecordDetailQuery,
          response: { 200: Envelope(RecordDetail) },
        },
      },
      async (req) => ok(await wallet.recordDetail(req.userId, req.query.type, req.query.id, requestLang(req))),
    );

    app.get(
      `/api/${API_PATHS.getAddressBook}`,
      { preHandler: requireAuth, schema: { tags: TAGS, summary: 'Your saved withdrawal addresses, newest first', response: { 200: Envelope(AddressBook) } } },
      async (req) => ok(await wallet.addressBook(req.userId)),
    );

    app.post(
      `/api/${API_PATHS.addAddress}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Save a withdrawal address (checked for the network, EIP-55 when mixed case)',
          body: AddAddressBody,
          response: { 200: Envelope(AddressBookEntry) },
        },
      },
      async (req) => ok(await wallet.addAddress(req.userId, req.body)),
    );

    app.post(
      `/api/${API_PATHS.deleteAddress}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Delete one of your saved addresses', body: DeleteAddressBody, response: { 200: Envelope(Type.Null()) } },
      },
      async (req) => {
        await wallet.deleteAddress(req.userId, req.body.id);
        return ok(null);
      },
    );
  };
}
