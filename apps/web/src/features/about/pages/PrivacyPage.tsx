/** PrivacyPage (being built). */
export default function PrivacyPage() {
  return <div>PrivacyPage</div>;
}
