/**
 * English texts of the console, the source of the key set (zh.ts must have every key). This file holds the texts the
 * whole console shares: the frame (app), roles, errors, common words and the audit log table (shared/audit). Each
 * feature's own texts, its menu label (nav.*) included, are in features/<feature>/locales.ts and merged in here
 * (features.ts).
 */
import { featureTexts, mergeTexts } from './features';

const shared = {
  app: { title: 'Exchange Console', logout: 'Log out', language: 'Language', dark: 'Dark', light: 'Light', theme: 'Theme' },
  roles: { support: 'Support', compliance: 'Compliance', finance: 'Finance', admin: 'Admin' },
  errors: { network: 'Network error, please try again', required: 'Required' },
  audit: {
    operator: 'Operator',
    operatorId: 'Operator id',
    action: 'Action',
    user: 'User id',
    time: 'Time',
    range: 'Time range',
    ip: 'IP',
    userAgent: 'Browser',
    before: 'Before',
    after: 'After',
    filter: 'Filter',
    reset: 'Reset',
    any: 'Any',
  },
  common: { ok: 'OK', cancel: 'Cancel', yes: 'Yes', no: 'No', total: '{{count}} in total', refresh: 'Refresh' },
};

/** The shape of the shared texts in every language. */
export type SharedTexts = typeof shared;

/** Every English text: the shared ones and each feature's. */
export const en = mergeTexts([{ file: 'locales/en.ts', texts: shared }, ...featureTexts.map((f) => ({ file: f.file, texts: f.texts.en }))]);
