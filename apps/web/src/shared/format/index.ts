export {
  addDecimal,
  compareDecimal,
  decimalsOf,
  decToString,
  divDecimal,
  isDecimal,
  isZeroDecimal,
  mulDecimal,
  parseDec,
  rescale,
  subDecimal,
  toFixedDecimal,
  type Dec,
  type RoundMode,
} from '@exchange/money';
export * from './format';
