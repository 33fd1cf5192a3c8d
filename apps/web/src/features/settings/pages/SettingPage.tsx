/** SettingPage (being built). */
export default function SettingPage() {
  return <div>SettingPage</div>;
}
