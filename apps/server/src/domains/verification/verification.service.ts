/**
 * The verification domain's two services, built once for the process: the slide puzzle (`captcha`, captcha.service.ts)
 * and the e-mail and SMS codes (`codes`, code.service.ts), over one repository. The member service (registration,
 * login, password reset), account security and the wallet take them from the module; a code is sent only to an account
 * that exists when its purpose needs one (`accountExists`, read from the engine's users by account key).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { userKeyOf } from '../../platform/shared/account';
import { createCaptchaService, type CaptchaService } from './captcha.service';
import { createCodeService, type CodeService } from './code.service';
import { codeSendersFromConfig, type CodeSenders } from './code-sender';
import { createVerificationRepository } from './verification.repository';

/** The puzzle and the codes. */
export interface VerificationServices {
  captcha: CaptchaService;
  codes: CodeService;
}

/**
 * Builds the puzzle and the code services. Optional: `senders` (code delivery; default from config), `now` (Unix ms
 * clock, Date.now by default).
 */
export function createVerificationServices(deps: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  host: EnginePort;
  senders?: CodeSenders;
  now?: () => number;
}): VerificationServices {
  const { config, db, log, host } = deps;
  const now = deps.now ?? Date.now;
  const repo = createVerificationRepository(db);
  const captcha = createCaptchaService({ repo, testMode: config.captchaTestMode, now, challengesPerMinute: config.captchaPerIpPerMin });
  const codes = createCodeService({
    repo,
    captcha,
    senders: deps.senders ?? codeSendersFromConfig(config, db, log),
    accountExists: async (a) => host.engine.userByKey(userKeyOf(a)) !== undefined,
    log,
    now,
    resendMs: config.codeResendMs,
    ipPerHour: config.codeIpPerHour,
  });
  return { captcha, codes };
}
