/** ForgetPage (being built). */
export default function ForgetPage() {
  return <div>ForgetPage</div>;
}
