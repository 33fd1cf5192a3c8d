/**
 * The wallet's public identity against the journal: every deposit address and the hot wallet derive from the signer's
 * seed, so a server that started on another seed (a backup restored without its keys, a lost SIGNER_SEED_FILE) would
 * show users new deposit addresses and could no longer spend what the old ones hold. The journal records the deposit
 * xpub's fingerprint at the first start of the chain side (the engine's `walletIdentity` command); a later start whose
 * xpub differs is refused, and a seed is never created for an exchange whose journal already has users or an identity.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { EngineApi } from '@exchange/core';

/** The fingerprint the journal records: SHA-256 (64 lowercase hex) of the deposit account's xpub. */
export function walletFingerprint(xpub: string): string {
  return createHash('sha256').update(xpub, 'utf8').digest('hex');
}

const HOW_TO_RESTORE =
  'restore the seed with its backup (npm run restore -- <backup> --passphrase-file <file>, docs/operations.md) or point SIGNER_SEED_FILE at it';

/**
 * Why a new signer seed must not be created at `file` for the state `engine` (null: it may be): the journal recorded
 * the wallet's identity, or it has users, whose deposit addresses derive from the seed that is missing.
 */
export function seedCreationRefusal(file: string, engine: Pick<EngineApi, 'walletIdentity' | 'userRows'>): string | null {
  if (fs.existsSync(file)) return null;
  const recorded = engine.walletIdentity();
  const users = recorded === null ? engine.userRows().length : 0;
  if (recorded === null && users === 0) return null;
  return (
    `SIGNER_SEED_FILE ${file} is missing, but the journal ${recorded !== null ? `recorded the wallet ${recorded.slice(0, 16)}…` : `has ${users} user${users === 1 ? '' : 's'}`}, ` +
    `whose deposit addresses and hot wallet come from that seed: ${HOW_TO_RESTORE}. A new seed is never made for an exchange that has run.`
  );
}

/**
 * Throws unless `xpub` is the wallet the journal recorded (nothing recorded: any xpub passes; the caller records it).
 * The message says which fingerprints differ and how to restore the seed.
 */
export function checkWalletIdentity(engine: Pick<EngineApi, 'walletIdentity'>, xpub: string, source: string): void {
  const recorded = engine.walletIdentity();
  const mine = walletFingerprint(xpub);
  if (recorded === null || recorded === mine) return;
  throw new Error(
    `the wallet of ${source} (fingerprint ${mine.slice(0, 16)}…) is not the one this exchange's journal recorded (${recorded.slice(0, 16)}…): ` +
      `starting on it would change the hot wallet and every user's deposit address. ${HOW_TO_RESTORE[0]!.toUpperCase()}${HOW_TO_RESTORE.slice(1)}.`,
  );
}
