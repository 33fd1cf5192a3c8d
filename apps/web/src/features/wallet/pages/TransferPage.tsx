/**
 * /assets/transfer (spec sections 2, 3, 5 and 9): moves a coin between two of the four accounts (Funding, Spot,
 * USDT-M futures, Fiat), free. From and to pickers with a swap button; the coin (the futures and fiat accounts hold
 * USDT only); the amount with the from account's available balance and "All". Checks: from and to differ, amount
 * required, at most 8 decimals, 'Amount exceeds maximum' above the available balance. Out of the contract account the
 * maximum is its max withdraw amount (contract getAccount `maxWithdrawAmount`: margin and cross unrealized losses of
 * open positions stay), with a note saying why when it is below the ledger's balance: the server refuses more
 * (transfer_exceeds_withdrawable), so the form says it first. The request carries a client id kept across retries of
 * the same submission. Then /assets/tranferSuccess (the spec's spelling), or, when opened from the withdraw form with
 * `returnTo`, back to that withdraw form (a toast says the transfer succeeded).
 */
import { useRef, useState } from 'react';
import { ActionSheet, Button, Popup } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WalletAccount } from '@exchange/api';
import { Field } from '../../../shared/forms/fields';
import { showToast } from '../../../shared/api-client';
import { compareDecimal, formatCoin, toFixedDecimal, trimZeros } from '../../../shared/format';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { CoinIcon } from '../../../shared/ui/CoinIcon';
import { availableIn, useBalances } from '../api/get-balances';
import { useContractWithdrawable } from '../api/get-contract-withdrawable';
import { useTransfer } from '../api/transfer';
import { WalletHeader } from '../components/WalletHeader';
import { WALLET_ACCOUNTS, accountHolds, safeReturnTo } from '../lib/accounts';
import { ENGINE_DECIMALS, checkTransfer, sanitizeAmount } from '../lib/amounts';
import { clientIdKeeper } from '../lib/client-id';
import { AmountSuffix } from '../components/AmountSuffix';
import '../wallet.css';

/** An account of the query (`from`/`to`), or `fallback`. */
function accountOf(v: string | null, fallback: WalletAccount): WalletAccount {
  return WALLET_ACCOUNTS.includes(v as WalletAccount) ? (v as WalletAccount) : fallback;
}

export default function TransferPage() {
  const { t } = useTranslation('wallet');
  return (
    <div className="wl-page">
      <WalletHeader title={t('transfer.title')} records="transfer" />
      <LoginFirst>
        <TransferForm />
      </LoginFirst>
    </div>
  );
}

function TransferForm() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const balances = useBalances();
  const [from, setFrom] = useState<WalletAccount>(accountOf(params.get('from'), 'ASSETS'));
  const [to, setTo] = useState<WalletAccount>(accountOf(params.get('to'), from === 'SPOT' ? 'ASSETS' : 'SPOT'));
  const [coin, setCoin] = useState((params.get('coin') ?? 'USDT').toUpperCase());
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState<'from' | 'to' | 'coin' | null>(null);
  const keeper = useRef(clientIdKeeper());
  const send = useTransfer();
  const contract = useContractWithdrawable(from === 'CONTRACT');
  // Opened from the withdraw form's "Transfer": back there once the coin has moved.
  const returnTo = safeReturnTo(params.get('returnTo'));

  if (balances.isLoading) return <InlineLoading />;
  if (balances.isError || !balances.data) return <LoadFailed error={balances.error} onRetry={() => void balances.refetch()} />;

  /**
   * What may leave `from` in coin `c`: the ledger's available balance, and out of the contract account (USDT) not more
   * than its max withdraw amount (until that is known, the ledger's balance; the server checks either way).
   */
  // The value All puts into the amount input: ungrouped (format-rule: input); shown through formatCoin.
  const maxOut = (c: string): { amount: string; limited: boolean } => {
    const ledger = trimZeros(availableIn(balances.data, from, c)); // format-rule: input
    const limit = from === 'CONTRACT' && c === 'USDT' ? contract.data?.maxWithdrawAmount : undefined;
    if (limit === undefined || compareDecimal(limit, ledger) >= 0) return { amount: ledger, limited: false };
    return { amount: trimZeros(toFixedDecimal(limit, ENGINE_DECIMALS, 'down')), limited: true }; // format-rule: input
  };
  const { amount: available, limited } = maxOut(coin);
  const coins = (balances.data.accounts.find((a) => a.type === 'ASSETS')?.items ?? [])
    .map((i) => i.coin)
    .filter((c) => accountHolds(from, c) && accountHolds(to, c));

  /** Sets the accounts; a coin they cannot both hold becomes USDT. */
  const setAccounts = (f: WalletAccount, tt: WalletAccount) => {
    setFrom(f);
    setTo(tt);
    if (!accountHolds(f, coin) || !accountHolds(tt, coin)) setCoin('USDT');
    setError(null);
  };

  const submit = () => {
    const k = checkTransfer(from, to, amount, available);
    setError(k ? t(k, { n: ENGINE_DECIMALS }) : null);
    if (k) return;
    const fields = { coin, from, to, amount };
    const clientId = keeper.current.idFor(JSON.stringify(fields));
    send.mutate(
      { ...fields, clientId },
      {
        onSuccess: () => {
          keeper.current.reset();
          if (returnTo) {
            showToast(t('transferSuccess.result'));
            navigate(returnTo, { replace: true });
            return;
          }
          navigate(`/assets/tranferSuccess?${new URLSearchParams(fields).toString()}`, { replace: true });
        },
      },
    );
  };

  return (
    <form
      className="wl-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="wl-card wl-accounts">
        <div className="wl-accounts-col">
          <button type="button" className="wl-account" aria-label={`${t('transfer.from')}: ${t(`account.${from}`)}`} onClick={() => setPicking('from')}>
            <span className="wl-account-label">{t('transfer.from')}</span>
            <span className="wl-account-name">{t(`account.${from}`)}</span>
            <DownOutline className="wl-chevron" />
          </button>
          <button type="button" className="wl-account" aria-label={`${t('transfer.to')}: ${t(`account.${to}`)}`} onClick={() => setPicking('to')}>
            <span className="wl-account-label">{t('transfer.to')}</span>
            <span className="wl-account-name">{t(`account.${to}`)}</span>
            <DownOutline className="wl-chevron" />
          </button>
        </div>
        <button type="button" className="wl-swap" aria-label={t('transfer.swap')} onClick={() => setAccounts(to, from)}>
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
            <path
              d="M8 4v16M8 4L4 8M8 4l4 4M16 20V4M16 20l-4-4M16 20l4-4"
              stroke="currentColor"
              strokeWidth="1.8"
              fill="none"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      </div>
      <div className="wl-section wl-flush">
        <div className="wl-label">{t('coin')}</div>
        <button type="button" className="wl-coin-row" aria-label={t('transfer.chooseCoin', { coin })} onClick={() => setPicking('coin')}>
          <CoinIcon coin={coin} size={24} />
          <span className="wl-coin-code">{coin}</span>
          <DownOutline className="wl-chevron" />
        </button>
      </div>
      <Field
        label={t('transfer.amount')}
        value={amount}
        onChange={(v) => {
          setAmount(sanitizeAmount(v, ENGINE_DECIMALS));
          setError(null);
        }}
        placeholder={t('transfer.amountPlaceholder')}
        inputMode="decimal"
        maxLength={40}
        autoComplete="off"
        error={error}
        suffix={<AmountSuffix coin={coin} label={t('transfer.all')} onFill={() => setAmount(available)} />}
      />
      <div className="wl-available">
        {t('available')}{' '}
        <span className="wl-strong" data-testid="transfer-available">
          {formatCoin(available, coin, { exact: true })} {coin}
        </span>
      </div>
      {limited && (
        <p className="wl-hint" data-testid="transfer-limit-note">
          {t('transfer.positionsHold')}
        </p>
      )}
      <p className="wl-hint">{t('transfer.freeHint')}</p>
      <Button block color="primary" type="submit" loading={send.isPending}>
        {t('transfer.submit')}
      </Button>
      <ActionSheet
        visible={picking === 'from' || picking === 'to'}
        onClose={() => setPicking(null)}
        cancelText={t('common:cancel')}
        actions={WALLET_ACCOUNTS.map((a) => ({
          key: a,
          text: t(`account.${a}`),
          disabled: picking === 'from' ? a === from : a === to,
          onClick: () => {
            // Picking the other side's account swaps the two, so from and to stay different.
            if (picking === 'from') setAccounts(a, a === to ? from : to);
            else setAccounts(a === from ? to : from, a);
            setPicking(null);
          },
        }))}
      />
      <Popup visible={picking === 'coin'} onMaskClick={() => setPicking(null)} bodyClassName="wl-sheet">
        <div role="dialog" aria-label={t('coin')}>
          <h2 className="wl-sheet-title">{t('coin')}</h2>
          <ul className="wl-coin-list">
            {coins.map((c) => (
              <li key={c}>
                <button
                  type="button"
                  className="wl-coin-item"
                  onClick={() => {
                    setCoin(c);
                    setError(null);
                    setPicking(null);
                  }}
                >
                  <CoinIcon coin={c} size={24} />
                  <span className="wl-coin-code">{c}</span>
                  <span className="wl-coin-name">{maxOut(c).amount}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </Popup>
    </form>
  );
}
