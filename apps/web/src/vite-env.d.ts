/// <reference types="vite/client" />
/** Build id baked in at build time (vite.config.ts); compared with /version.json for the new-version dialog. */
declare const __BUILD_ID__: string;
declare const __APP_VERSION__: string;
