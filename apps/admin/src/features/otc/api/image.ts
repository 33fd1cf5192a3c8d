/** An OTC image (payment proof, appeal evidence, chat image) as the console shows it: the shared authorized-image hook. */
export { apiPathOf, useApiImage as useOtcImage } from '../../../shared/api-image';
