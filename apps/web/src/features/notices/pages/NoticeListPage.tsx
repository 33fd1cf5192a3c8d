/** NoticeListPage (being built). */
export default function NoticeListPage() {
  return <div>NoticeListPage</div>;
}
