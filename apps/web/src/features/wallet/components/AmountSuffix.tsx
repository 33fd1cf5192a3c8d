/** The end of an amount field: the coin and a button that fills in the most allowed ("All" to transfer, "Max" to withdraw). */
export function AmountSuffix(props: { coin: string; label: string; onFill: () => void }) {
  return (
    <span className="wl-amount-suffix">
      <span>{props.coin}</span>
      <button type="button" className="wl-max" onClick={props.onFill}>
        {props.label}
      </button>
    </span>
  );
}
