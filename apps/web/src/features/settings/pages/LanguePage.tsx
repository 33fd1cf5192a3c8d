/** LanguePage (being built). */
export default function LanguePage() {
  return <div>LanguePage</div>;
}
