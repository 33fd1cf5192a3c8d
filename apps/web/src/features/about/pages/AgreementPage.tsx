/** AgreementPage (being built). */
export default function AgreementPage() {
  return <div>AgreementPage</div>;
}
