/** NoticeDetailPage (being built). */
export default function NoticeDetailPage() {
  return <div>NoticeDetailPage</div>;
}
