/**
 * /assets/withdrawCoin?coin=&chain= (spec sections 2 and 5): the coin and network (a row naming it that opens the list
 * of the coin's networks with each one's fee, minimum and confirmations; the choice is kept in the query), the address
 * (typed, or picked from the address book of that network; "Save to address book"; it stays when the network changes),
 * the amount with the available balance and "Max", the minimum, maximum, fee and "You will receive". Client checks
 * mirror the server's with the spec's messages (address required and correct: EIP-55 when mixed case; an address of a
 * network of another family, such as TRON's, is refused as soon as it is typed, naming the chosen network, and the
 * button stays off; amount required, decimals, not below the minimum, not above the available balance or the
 * maximum). An address the server refuses (wrong network, invalid, ours) closes the security sheet and shows the
 * server's text under the address. Unverified users are prompted to verify (/personalCenter); without a
 * transaction password a prompt leads to /accountCenter/postPasswordSet; during a 24 h lock a banner gives its end
 * and the button is off. Submitting opens the security sheet (PIN, e-mail/SMS code, Google code when bound); the
 * request carries a client id kept across retries of the same submission. Then /assets/withdrawCoinSuccess?id=.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { Button, Popup, TextArea } from 'antd-mobile';
import { loadFeedback } from '../../../shared/ui/feedback';
import { ExclamationCircleFill } from 'antd-mobile-icons';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CoinChain } from '@exchange/api';
import { isApiError, showToast } from '../../../shared/api-client';
import { formatCoin, formatDateTime } from '../../../shared/format';
import { Field } from '../../../shared/forms/fields';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { useWithdrawInfo, type WithdrawInfo } from '../api/get-withdraw-info';
import { useBalances } from '../api/get-balances';
import { WITHDRAW_ACCOUNT, otherBalances, topUpTransferUrl } from '../lib/accounts';
import { useWithdraw } from '../api/withdraw';
import { useAddAddress } from '../api/add-address';
import { WalletHeader } from '../components/WalletHeader';
import { CoinPickerRow } from '../components/CoinPickerRow';
import { NetworkPicker } from '../components/NetworkPicker';
import { AddressBookPopup } from '../components/AddressBookPopup';
import { WithdrawConfirmPopup, type WithdrawProofs } from '../components/WithdrawConfirmPopup';
import { checkEvmAddress, otherNetworkOf } from '../lib/address';
import { checkWithdrawAmount, receiveAmount, sanitizeAmount, withdrawMax } from '../lib/amounts';
import { clientIdKeeper } from '../lib/client-id';
import { useCoinChain } from '../hooks/use-coin-chain';
import { AmountSuffix } from '../components/AmountSuffix';
import '../wallet.css';

export default function WithdrawCoinPage() {
  const { t } = useTranslation('wallet');
  const [params] = useSearchParams();
  const coin = (params.get('coin') ?? '').toUpperCase();
  if (!coin) return <Navigate to="/assets/chooseCoin?type=withdrawCoin" replace />;
  return (
    <div className="wl-page">
      <WalletHeader title={t('withdraw.title', { coin })} records="withdrawCoin" />
      <LoginFirst>
        <WithdrawBody coin={coin} />
      </LoginFirst>
    </div>
  );
}

function WithdrawBody({ coin }: { coin: string }) {
  const { t } = useTranslation('wallet');
  const { coins, info, chains, selected, setChain } = useCoinChain(coin);
  // The address outlives a change of network (the form of each network is new): the user who pasted an address and
  // then picks its network keeps it, and it is checked again against the new network.
  const [address, setAddress] = useState('');
  if (coins.isLoading) return <InlineLoading />;
  if (coins.isError) return <LoadFailed error={coins.error} onRetry={() => void coins.refetch()} />;
  return (
    <>
      <CoinPickerRow coin={coin} name={info?.name} type="withdrawCoin" />
      <NetworkPicker coin={coin} chains={chains} value={selected?.chain ?? ''} onChange={setChain} mode="withdraw" />
      {!selected || !selected.available ? (
        <p className="wl-notice" role="status">
          {t('networkUnavailable')}
        </p>
      ) : !selected.withdrawEnabled ? (
        <p className="wl-notice" role="status">
          {t('withdraw.suspended')}
        </p>
      ) : (
        <InfoLoader coin={coin} chain={selected} address={address} setAddress={setAddress} />
      )}
    </>
  );
}

/** The address of the form, kept by the page across networks. */
interface AddressState {
  address: string;
  setAddress: (address: string) => void;
}

function InfoLoader({ coin, chain, ...addressState }: { coin: string; chain: CoinChain } & AddressState) {
  const q = useWithdrawInfo(coin, chain.chain, true);
  if (q.isLoading) return <InlineLoading />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} compact />;
  return <WithdrawForm key={`${coin}/${chain.chain}`} info={q.data} chain={chain} {...addressState} />;
}

/** Server codes that refuse the address: their text goes under the address field. */
const ADDRESS_ERRORS = ['address_wrong_network', 'address_invalid', 'address_internal'];

/**
 * The inline text for an address of a network outside the EVM family typed for `chain`, naming both ("This is not a
 * BNB Smart Chain (BEP20) address: it looks like a TRON address. ..."), or null when the address is not one.
 */
function useWrongNetworkText(address: string, chain: CoinChain): string | null {
  const { t } = useTranslation('wallet');
  const family = otherNetworkOf(address);
  if (!family) return null;
  return t('v.address.wrongNetwork', {
    network: chain.chainName,
    family: t(`addressFamily.${family}`),
    context: /^[aeiou]/i.test(chain.chainName) ? 'vowel' : undefined,
  });
}

/** The form of one coin on one network. */
function WithdrawForm({ info, chain, address, setAddress }: { info: WithdrawInfo; chain: CoinChain } & AddressState) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ address?: string | null; amount?: string | null }>({});
  const [book, setBook] = useState(false);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const keeper = useRef(clientIdKeeper());
  const withdraw = useWithdraw();
  const locked = !!info.lock && info.lock.until > Date.now();
  const coin = info.coin;
  const addr = address.trim();
  const receive = receiveAmount(amount, info.withdrawFee);
  const wrongNetwork = useWrongNetworkText(addr, chain);

  const addressError = (): string | null => {
    if (wrongNetwork) return wrongNetwork;
    const p = checkEvmAddress(addr);
    return p ? t(`v.address.${p}`) : null;
  };
  const amountError = (): string | null => {
    const k = checkWithdrawAmount(amount, info);
    return k ? t(k, { min: info.minWithdraw, max: info.maxWithdraw, n: info.withdrawDecimals, fee: info.withdrawFee, coin }) : null;
  };

  const prompt = async (content: string, confirmText: string, to: string) => {
    if (await (await loadFeedback()).Dialog.confirm({ content, confirmText, cancelText: t('common:cancel') })) navigate(to);
  };

  const onSubmit = () => {
    const next = { address: addressError(), amount: amountError() };
    setErrors(next);
    if (next.address || next.amount || locked || wrongNetwork) return;
    if (!info.verified) return void prompt(t('common:guard.needVerify'), t('common:guard.toVerify'), '/personalCenter');
    if (!info.transPasswordSet) return void prompt(t('withdraw.needPin'), t('withdraw.toSetPin'), '/accountCenter/postPasswordSet');
    setConfirming(true);
  };

  const onConfirm = async (p: WithdrawProofs) => {
    const fields = { coin, chain: chain.chain, address: addr, amount };
    const clientId = keeper.current.idFor(JSON.stringify(fields));
    try {
      const rec = await withdraw.mutateAsync({ ...fields, ...p, clientId });
      keeper.current.reset();
      setConfirming(false);
      navigate(`/assets/withdrawCoinSuccess?id=${encodeURIComponent(rec.id)}`, { replace: true });
    } catch (e) {
      if (isApiError(e, 'trans_password_not_set')) {
        setConfirming(false);
        void prompt(t('withdraw.needPin'), t('withdraw.toSetPin'), '/accountCenter/postPasswordSet');
      } else if (isApiError(e) && ADDRESS_ERRORS.includes(e.code)) {
        setConfirming(false);
        setErrors((x) => ({ ...x, address: e.message }));
      }
      throw e;
    }
  };

  return (
    <form
      className="wl-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {locked && info.lock && (
        <div className="wl-lock" role="status">
          <ExclamationCircleFill className="wl-lock-icon" aria-hidden="true" />
          <div>
            <div className="wl-strong">{t('withdraw.locked', { time: formatDateTime(info.lock.until) })}</div>
            <div className="wl-hint">{t(`lockReason.${info.lock.reason}`, { defaultValue: info.lock.reason })}</div>
          </div>
        </div>
      )}
      {!info.verified && (
        <div className="wl-lock wl-verify" role="status">
          <ExclamationCircleFill className="wl-lock-icon" aria-hidden="true" />
          <div className="wl-grow">{t('withdraw.verifyFirst')}</div>
          <Button size="mini" color="primary" onClick={() => navigate('/personalCenter')}>
            {t('common:guard.toVerify')}
          </Button>
        </div>
      )}
      <AddressField
        label={t('withdraw.address')}
        value={address}
        onChange={(v) => {
          setAddress(v.replace(/\s/g, ''));
          if (errors.address) setErrors((x) => ({ ...x, address: null }));
        }}
        placeholder={t('withdraw.addressPlaceholder', { chain: chain.chainName, context: /^[aeiou]/i.test(chain.chainName) ? 'vowel' : undefined })}
        error={wrongNetwork ?? errors.address}
        suffix={
          <button type="button" className="wl-icon-btn" aria-label={t('book.title')} onClick={() => setBook(true)}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M6 3h12v18H6zM9 8h6M9 12h6M3 7h3M3 12h3M3 17h3" stroke="currentColor" strokeWidth="1.7" fill="none" strokeLinecap="round" />
            </svg>
          </button>
        }
      />
      {addr && !checkEvmAddress(addr) && (
        <button type="button" className="wl-link wl-save-address" onClick={() => setSaving(true)}>
          {t('book.save')}
        </button>
      )}
      <Field
        label={t('withdraw.amount')}
        value={amount}
        onChange={(v) => setAmount(sanitizeAmount(v, info.withdrawDecimals))}
        placeholder={t('withdraw.amountPlaceholder', { min: info.minWithdraw })}
        inputMode="decimal"
        maxLength={40}
        autoComplete="off"
        error={errors.amount}
        suffix={<AmountSuffix coin={coin} label={t('withdraw.max')} onFill={() => setAmount(withdrawMax(info))} />}
      />
      <PayingAccount info={info} chain={chain.chain} />
      <dl className="wl-facts">
        <div>
          <dt>{t('withdraw.minimum')}</dt>
          <dd>
            {formatCoin(info.minWithdraw, coin, { exact: true })} {coin}
          </dd>
        </div>
        <div>
          <dt>{t('withdraw.maximum')}</dt>
          <dd>
            {formatCoin(info.maxWithdraw, coin, { exact: true })} {coin}
          </dd>
        </div>
        <div>
          <dt>{t('withdraw.fee')}</dt>
          <dd>
            {formatCoin(info.withdrawFee, coin, { exact: true })} {coin}
          </dd>
        </div>
        <div>
          <dt>{t('withdraw.daily')}</dt>
          <dd>
            {t('withdraw.dailyValue', {
              used: formatCoin(info.dailyUsed, coin, { exact: true }),
              limit: formatCoin(info.dailyLimit, coin, { exact: true }),
              coin,
            })}
          </dd>
        </div>
      </dl>
      <div className="wl-receive">
        <span>{t('withdraw.receive')}</span>
        <span className="wl-receive-value" data-testid="withdraw-receive">
          {formatCoin(receive || '0', coin, { exact: true })} {coin}
        </span>
      </div>
      <p className="wl-warn">{t('withdraw.warning', { coin, chain: chain.chainName })}</p>
      <Button block color="primary" type="submit" disabled={locked || !!wrongNetwork}>
        {t('withdraw.submit')}
      </Button>
      <AddressBookPopup
        visible={book}
        coin={coin}
        chain={chain.chain}
        chainName={chain.chainName}
        onClose={() => setBook(false)}
        onPick={(a) => {
          setAddress(a);
          setErrors((e) => ({ ...e, address: null }));
          setBook(false);
        }}
      />
      <SaveAddressPopup visible={saving} coin={coin} chain={chain.chain} address={addr} onClose={() => setSaving(false)} />
      <WithdrawConfirmPopup
        visible={confirming}
        info={info}
        summary={{ network: chain.chainName, address: addr, amount, fee: info.withdrawFee, receive }}
        onClose={() => setConfirming(false)}
        onConfirm={onConfirm}
      />
    </form>
  );
}

/**
 * Which account pays the withdrawal (the funding account) with its available balance, a "Transfer" link beside it
 * (Binance's), and the coin in the user's other accounts: a user whose coins sit in Spot sees where they are and
 * moves them in place. The link opens the transfer of this coin into the paying account, from the account holding the
 * most of it, and the transfer comes back here when done.
 */
function PayingAccount({ info, chain }: { info: WithdrawInfo; chain: string }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const balances = useBalances();
  const coin = info.coin;
  const others = otherBalances(balances.data, WITHDRAW_ACCOUNT, coin);
  const returnTo = `/assets/withdrawCoin?${new URLSearchParams({ coin, chain }).toString()}`;
  return (
    <div className="wl-available wl-paying">
      <div className="wl-paying-row">
        <span>
          <span>{t('withdraw.availableIn', { account: t(`account.${WITHDRAW_ACCOUNT}`) })}</span>{' '}
          <span className="wl-strong" data-testid="withdraw-available">
            {formatCoin(info.available, coin, { exact: true })} {coin}
          </span>
        </span>
        <button type="button" className="wl-link wl-strong-link" onClick={() => navigate(topUpTransferUrl(others, WITHDRAW_ACCOUNT, coin, returnTo))}>
          {t('withdraw.transfer')}
        </button>
      </div>
      {others.length > 0 && (
        <ul className="wl-other-accounts" aria-label={t('withdraw.otherAccounts')} data-testid="withdraw-other-accounts">
          {others.map((o) => (
            <li key={o.account}>
              <span>{t(`account.${o.account}`)}</span>
              <span className="num">
                {formatCoin(o.available, coin, { exact: true })} {coin}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="wl-hint">{t('withdraw.paidFrom', { account: t(`account.${WITHDRAW_ACCOUNT}`) })}</p>
    </div>
  );
}

/**
 * The address as a labelled text area (the shared Field's look): a 42-character address does not fit one line of
 * a 390 px screen, and the user must see all of it to check it; it wraps to a second line instead.
 */
function AddressField(props: { label: string; value: string; onChange: (v: string) => void; placeholder: string; error?: string | null; suffix: ReactNode }) {
  const id = useId();
  return (
    <div className="ex-field">
      <label className="ex-field-label" htmlFor={id}>
        {props.label}
      </label>
      <div className={`ex-field-box wl-address-box${props.error ? ' has-error' : ''}`}>
        <TextArea
          id={id}
          value={props.value}
          onChange={props.onChange}
          placeholder={props.placeholder}
          maxLength={64}
          autoSize={{ minRows: 1, maxRows: 3 }}
          rows={1}
        />
        {props.suffix}
      </div>
      {props.error && (
        <div className="ex-field-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

/** "Save to address book": a label for the typed address. */
function SaveAddressPopup(props: { visible: boolean; coin: string; chain: string; address: string; onClose: () => void }) {
  const { t } = useTranslation('wallet');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddAddress();
  const save = () => {
    const l = label.trim();
    if (!l) return setError(t('book.labelRequired'));
    add.mutate(
      { coin: props.coin, chain: props.chain, address: props.address, label: l },
      {
        onSuccess: () => {
          showToast(t('book.saved'));
          setLabel('');
          props.onClose();
        },
      },
    );
  };
  return (
    <Popup visible={props.visible} onMaskClick={props.onClose} bodyClassName="wl-sheet" destroyOnClose>
      <div role="dialog" aria-label={t('book.save')}>
        <h2 className="wl-sheet-title">{t('book.save')}</h2>
        <p className="wl-mono wl-break">{props.address}</p>
        <Field
          label={t('book.label')}
          value={label}
          onChange={(v) => {
            setLabel(v);
            setError(null);
          }}
          placeholder={t('book.labelPlaceholder')}
          maxLength={32}
          error={error}
        />
        <Button block color="primary" loading={add.isPending} onClick={save}>
          {t('book.saveOk')}
        </Button>
      </div>
    </Popup>
  );
}
