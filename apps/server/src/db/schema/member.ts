/** Tables of the member area. */
export {};
