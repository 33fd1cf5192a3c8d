/**
 * Withdrawal limits (daily limits per verification level; spec section 5) and how many operators must
 * approve a withdrawal (above a configurable amount, two different operators must approve).
 *
 * Verification levels from the engine's user profile (domains/kyc): unverified (cardState not PASS) cannot
 * withdraw (limit 0, the app prompts to verify); basic (cardState PASS): 50,000 USDT and 20 ETH per UTC day;
 * advanced (kycAdvState PASS as well): ten times that. Other coins have no chain here: 0.
 *
 * Approvals: the withdrawal's value in USDT (USDT 1:1; ETH at the last price of ETH/USDT, as the assets screen
 * values it: asset.service.ts `usdtValue`) below WITHDRAW_AUTO_APPROVE_BELOW_USDT -> 0 (APPROVED at once); at or
 * above WITHDRAW_DUAL_APPROVAL_USDT -> 2; else 1. A coin that cannot be valued (no price yet) is never auto-approved.
 */
import { parseDecimal, type EngineApi } from '@exchange/core';
import type { Config } from '../../platform/config/env';
import { ENGINE_SCALE } from './chains';
import { usdtValue, VALUE_DECIMALS } from '../../platform/shared/valuation';

/** A user's verification level as the wallet counts it. */
export type VerificationLevel = 'NONE' | 'BASIC' | 'ADVANCED';

/** Daily withdrawal limits of the basic level, coin units. */
export const BASIC_DAILY_LIMITS: Readonly<Record<string, string>> = { USDT: '50000', ETH: '20' };
/** The advanced level's limits are this many times the basic ones. */
export const ADVANCED_FACTOR = 10n;

/** The level from an engine user profile (cardState, kycAdvState). */
export function verificationLevel(profile: Readonly<Record<string, string>> | undefined): VerificationLevel {
  if (profile?.cardState !== 'PASS') return 'NONE';
  return profile.kycAdvState === 'PASS' ? 'ADVANCED' : 'BASIC';
}

/** The daily limit of `coin` for `level`, engine units (0 = cannot withdraw). */
export function dailyLimit(level: VerificationLevel, coin: string): bigint {
  const basic = BASIC_DAILY_LIMITS[coin];
  if (level === 'NONE' || basic === undefined) return 0n;
  const units = parseDecimal(basic, ENGINE_SCALE);
  return level === 'ADVANCED' ? units * ADVANCED_FACTOR : units;
}

/** The approval policy of the configured thresholds. */
export interface ApprovalPolicy {
  /** Operators that must approve a withdrawal of `amount` engine units of `coin` (0, 1 or 2). */
  approvalsRequired(engine: EngineApi, coin: string, amount: bigint): number;
}

/** Builds the policy; throws when a threshold is not a decimal (env.ts checks them first). */
export function createApprovalPolicy(config: Pick<Config, 'withdrawAutoApproveBelowUsdt' | 'withdrawDualApprovalUsdt'>): ApprovalPolicy {
  const auto = parseDecimal(config.withdrawAutoApproveBelowUsdt, VALUE_DECIMALS);
  const dual = parseDecimal(config.withdrawDualApprovalUsdt, VALUE_DECIMALS);
  return {
    approvalsRequired(engine, coin, amount) {
      const value = usdtValue(engine, coin, engine.asset(coin)?.scale ?? ENGINE_SCALE, amount);
      // A coin other than USDT without a price is worth 0 here: review it rather than let it through.
      const unpriced = value === 0n && amount > 0n;
      if (!unpriced && value >= dual) return 2;
      if (!unpriced && value < auto) return 0;
      return unpriced && dual === 0n ? 2 : 1;
    },
  };
}
