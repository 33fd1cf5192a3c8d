/**
 * The withdrawal address book as a bottom sheet: the saved addresses of the coin on the chosen network (named under the
 * title) with their labels; addresses saved for another network are not listed, so none can be picked for the wrong
 * one. A tap picks one into the form, the bin deletes it (after a confirm).
 */
import { Popup } from 'antd-mobile';
import { loadFeedback } from '../../../shared/ui/feedback';
import { DeleteOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { useAddressBook } from '../api/get-address-book';
import { useDeleteAddress } from '../api/delete-address';

/** The sheet; `onPick(address)` fills the form and closes it. */
export function AddressBookPopup(props: {
  visible: boolean;
  coin: string;
  /** the network code, and its display name */
  chain: string;
  chainName: string;
  onClose: () => void;
  onPick: (address: string) => void;
}) {
  const { t } = useTranslation('wallet');
  const book = useAddressBook(props.visible);
  const del = useDeleteAddress();
  const entries = (book.data ?? []).filter((e) => e.chain === props.chain && e.coin === props.coin);
  return (
    <Popup visible={props.visible} onMaskClick={props.onClose} bodyClassName="wl-sheet" destroyOnClose>
      <div role="dialog" aria-label={t('book.title')}>
        <h2 className="wl-sheet-title">{t('book.title')}</h2>
        <p className="wl-net-hint">{t('book.onNetwork', { chain: props.chainName })}</p>
        {isAwaiting(book) ? (
          <ListSkeleton />
        ) : book.isError ? (
          <LoadFailed error={book.error} onRetry={() => void book.refetch()} compact />
        ) : entries.length === 0 ? (
          <EmptyState text={t('book.empty')} />
        ) : (
          <ul className="wl-book">
            {entries.map((e) => (
              <li key={e.id} className="wl-book-item">
                <button type="button" className="wl-book-pick" onClick={() => props.onPick(e.address)}>
                  <span className="wl-book-label">{e.label}</span>
                  <span className="wl-mono wl-book-address">{e.address}</span>
                </button>
                <button
                  type="button"
                  className="wl-icon-btn"
                  aria-label={t('book.delete', { label: e.label })}
                  onClick={() =>
                    void loadFeedback().then(({ Dialog }) =>
                      Dialog.confirm({
                        content: t('book.deleteConfirm', { label: e.label }),
                        confirmText: t('book.deleteOk'),
                        cancelText: t('common:cancel'),
                      }).then((ok) => ok && del.mutate(e.id)),
                    )
                  }
                >
                  <DeleteOutline />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Popup>
  );
}
