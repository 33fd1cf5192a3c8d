/**
 * Locally persisted state of the app: exactly the fields of spec section 3 ("Locally persisted"),
 * plus the user's colour convention, valuation currency and country code (spec sections 1, 2, 9).
 * Each field lives in its own localStorage key under its spec name (token, userId, isLogin, phone,
 * pairsName, pairsName1, theme, currentLangue, ...) so the native shell and older builds can read them.
 */
import { create } from 'zustand';
import { persist, type PersistStorage, type StorageValue } from 'zustand/middleware';

/** Theme names of the spec: 'default' is day, 'night' is dark. */
export type ThemeName = 'default' | 'night';
/** Interface language (spec section 1). */
export type Lang = 'zh' | 'en';
/** Colour convention: 'green-up' = green rises / red falls (international); 'red-up' = red rises (China). */
export type UpDownColor = 'green-up' | 'red-up';

/** The persisted fields. */
export interface PersistedFields {
  token: string;
  userId: string;
  isLogin: boolean;
  /** The account (phone or email) last used to sign in; shown masked. */
  phone: string;
  /** Current spot pair (spec default BTC/USDT). */
  pairsName: string;
  /** Current contract pair (spec default BTC/USDT). */
  pairsName1: string;
  theme: ThemeName;
  currentLangue: Lang;
  upDownColor: UpDownColor;
  /** Valuation currency; the spec fixes it to CNY. */
  valuationCurrency: 'CNY';
  /** Country calling code of the phone, digits only; spec default 86. */
  areaCode: string;
}

/** Store actions. */
export interface AppStoreActions {
  /** Stores a new session after login/registration. */
  setSession: (s: { token: string; userId: string; phone?: string }) => void;
  /** Forgets token and userId and sets logged-out (401 / SYS.0015 / logout). Keeps preferences. */
  clearSession: () => void;
  setPairsName: (pairsName: string) => void;
  setPairsName1: (pairsName: string) => void;
  setTheme: (theme: ThemeName) => void;
  toggleTheme: () => void;
  setLang: (lang: Lang) => void;
  setUpDownColor: (c: UpDownColor) => void;
  setAreaCode: (code: string) => void;
}

export type AppStore = PersistedFields & AppStoreActions;

/** Defaults of the persisted fields (spec sections 3 and 9). */
export const DEFAULTS: PersistedFields = {
  token: '',
  userId: '',
  isLogin: false,
  phone: '',
  pairsName: 'BTC/USDT',
  pairsName1: 'BTC/USDT',
  theme: 'default',
  currentLangue: 'zh',
  upDownColor: 'green-up',
  valuationCurrency: 'CNY',
  areaCode: '86',
};

const KEYS = Object.keys(DEFAULTS) as (keyof PersistedFields)[];

function browserLang(): Lang {
  if (typeof navigator === 'undefined') return 'zh';
  return /^zh/i.test(navigator.language || '') ? 'zh' : 'en';
}

/** Reads one key; strings are stored raw, booleans as 'true'/'false'. */
function readField<K extends keyof PersistedFields>(key: K): PersistedFields[K] | undefined {
  const raw = localStorage.getItem(key);
  if (raw === null) return undefined;
  const def = DEFAULTS[key];
  if (typeof def === 'boolean') return (raw === 'true') as PersistedFields[K];
  return raw as PersistedFields[K];
}

/** zustand storage adapter writing each field to its own localStorage key. */
const perKeyStorage: PersistStorage<PersistedFields> = {
  getItem: () => {
    const state: Partial<PersistedFields> = {};
    for (const k of KEYS) {
      const v = readField(k);
      if (v !== undefined) (state as Record<string, unknown>)[k] = v;
    }
    if (state.currentLangue !== 'zh' && state.currentLangue !== 'en') state.currentLangue = browserLang();
    if (state.theme !== 'default' && state.theme !== 'night') delete state.theme;
    if (state.upDownColor !== 'green-up' && state.upDownColor !== 'red-up') delete state.upDownColor;
    return { state: state as PersistedFields, version: 1 };
  },
  setItem: (_name, value: StorageValue<PersistedFields>) => {
    for (const k of KEYS) {
      const v = value.state[k];
      if (v === undefined) continue;
      localStorage.setItem(k, String(v));
    }
  },
  removeItem: () => {
    for (const k of KEYS) localStorage.removeItem(k);
  },
};

/**
 * The app store. Read in components with `useAppStore((s) => s.token)`, outside React with
 * `useAppStore.getState()`. Hydrates synchronously from localStorage at start.
 */
export const useAppStore = create<AppStore>()(
  persist(
    (set, get) => ({
      ...DEFAULTS,
      setSession: ({ token, userId, phone }) => set({ token, userId, isLogin: true, ...(phone !== undefined ? { phone } : {}) }),
      clearSession: () => set({ token: '', userId: '', isLogin: false }),
      setPairsName: (pairsName) => set({ pairsName }),
      setPairsName1: (pairsName1) => set({ pairsName1 }),
      setTheme: (theme) => set({ theme }),
      toggleTheme: () => set({ theme: get().theme === 'night' ? 'default' : 'night' }),
      setLang: (currentLangue) => set({ currentLangue }),
      setUpDownColor: (upDownColor) => set({ upDownColor }),
      setAreaCode: (areaCode) => set({ areaCode: areaCode.replace(/\D/g, '') || '86' }),
    }),
    {
      name: 'exchange',
      version: 1,
      storage: perKeyStorage,
      partialize: (s): PersistedFields => {
        const out = {} as Record<string, unknown>;
        for (const k of KEYS) out[k] = s[k];
        return out as unknown as PersistedFields;
      },
    },
  ),
);

/** Snapshot of the auth headers for the API and WebSocket clients. */
export function getAuth(): { token: string; userId: string; isLogin: boolean } {
  const { token, userId, isLogin } = useAppStore.getState();
  return { token, userId, isLogin };
}
