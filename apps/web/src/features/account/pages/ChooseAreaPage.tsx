/** ChooseAreaPage (being built). */
export default function ChooseAreaPage() {
  return <div>ChooseAreaPage</div>;
}
