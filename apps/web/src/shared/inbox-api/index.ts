/** The in-app inbox's endpoints read by more than one feature: the unread counts (home header, side menu, /message). */
export * from './keys';
export * from './get-unread-count';
