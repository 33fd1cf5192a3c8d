/**
 * Transient UI state shared between features and the app shell (not persisted): the side menu,
 * the set-nickname dialog, and an epoch that tells open popups to close (SYS.0015 "popup closed").
 */
import { create } from 'zustand';

/** UI store fields and actions. */
export interface UiStore {
  sideMenuOpen: boolean;
  /** Path the side menu was opened on; going back there from a listed page reopens it (spec section 2). */
  sideMenuReturnPath: string | null;
  nicknameDialogOpen: boolean;
  /** Incremented by closeAllOverlays(); popups owned by features close when it changes. */
  overlayEpoch: number;
  openSideMenu: () => void;
  closeSideMenu: () => void;
  setSideMenuReturnPath: (p: string | null) => void;
  openNicknameDialog: () => void;
  closeNicknameDialog: () => void;
  closeAllOverlays: () => void;
}

/** The UI store (see UiStore). */
export const useUiStore = create<UiStore>()((set) => ({
  sideMenuOpen: false,
  sideMenuReturnPath: null,
  nicknameDialogOpen: false,
  overlayEpoch: 0,
  openSideMenu: () => set({ sideMenuOpen: true }),
  closeSideMenu: () => set({ sideMenuOpen: false }),
  setSideMenuReturnPath: (sideMenuReturnPath) => set({ sideMenuReturnPath }),
  openNicknameDialog: () => set({ nicknameDialogOpen: true }),
  closeNicknameDialog: () => set({ nicknameDialogOpen: false }),
  closeAllOverlays: () => set((s) => ({ sideMenuOpen: false, nicknameDialogOpen: false, sideMenuReturnPath: null, overlayEpoch: s.overlayEpoch + 1 })),
}));
