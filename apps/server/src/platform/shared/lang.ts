/** The request's language: header `lang` (zh|en) first, then Accept-Language; default zh. */
import type { FastifyRequest } from 'fastify';
import type { Lang } from '@exchange/api';

export function requestLang(req: Pick<FastifyRequest, 'headers'>): Lang {
  const h = req.headers['lang'];
  const explicit = (Array.isArray(h) ? h[0] : h)?.toLowerCase();
  if (explicit === 'en' || explicit?.startsWith('en-')) return 'en';
  if (explicit === 'zh' || explicit?.startsWith('zh-')) return 'zh';
  const accept = req.headers['accept-language']?.toLowerCase() ?? '';
  if (accept === '') return 'zh';
  const zh = accept.indexOf('zh');
  const en = accept.indexOf('en');
  if (en >= 0 && (zh < 0 || en < zh)) return 'en';
  return 'zh';
}
