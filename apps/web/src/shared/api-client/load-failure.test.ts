// Proves what a failed load says (spec section 8), in both languages: each HTTP status
// of the spec gives its alert, a failed connection, the timeout, a non-envelope answer, an offline browser,
// a FAILED answer, SYS.0015, another status and a non-API error each give their text.
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { loadFailureKind, loadFailureText } from './load-failure';
import { i18n } from '../i18n';

const STATUSES = [400, 401, 403, 404, 405, 408, 500, 501, 502, 503, 504, 505];
const httpError = (status: number) => new ApiError(`HTTP_${status}`, 'whatever the client said', status);

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('loadFailureText (en)', () => {
  it('gives the alert of each HTTP status of spec section 8', async () => {
    await i18n.changeLanguage('en');
    expect(STATUSES.map((s) => loadFailureText(httpError(s), true))).toEqual([
      'Bad request',
      'Authorization expired, please log in again',
      'Access denied',
      'Resource not found',
      'Method not allowed',
      'Request timeout',
      'Server error',
      'Not implemented',
      'Network error',
      'Service unavailable',
      'Network timeout',
      'HTTP version not supported',
    ]);
  });

  it('names the transport failures', async () => {
    await i18n.changeLanguage('en');
    expect(loadFailureText(new ApiError('NETWORK', 'x'), true)).toBe('Connection to the server failed');
    expect(loadFailureText(new ApiError('TIMEOUT', 'x'), true)).toBe('Request timeout');
    expect(loadFailureText(new ApiError('PARSE', 'x', 200), true)).toBe('Server error');
    expect(loadFailureText(new ApiError('NETWORK', 'x'), false)).toBe('No network, please check network settings');
    expect(loadFailureText(httpError(500), false)).toBe('No network, please check network settings');
  });

  it('shows a FAILED answer by its message, SYS.0015 as login expired, another status by its message', async () => {
    await i18n.changeLanguage('en');
    expect(loadFailureText(new ApiError('pair_not_found', 'Trading pair not found', 404), true)).toBe('Trading pair not found');
    expect(loadFailureText(new ApiError('SYS.0015', 'whatever', 200), true)).toBe('Login expired, please log in again');
    expect(loadFailureText(new ApiError('HTTP_429', 'Too Many Requests', 429), true)).toBe('Too Many Requests');
    expect(loadFailureText(new ApiError('HTTP_429', '', 429), true)).toBe('Request failed (429)');
  });

  it('says load failed for anything that is not an API error', async () => {
    await i18n.changeLanguage('en');
    expect(loadFailureText(new TypeError('Failed to fetch dynamically imported module'), true)).toBe('Load failed, please retry');
    expect(loadFailureText(undefined, true)).toBe('Load failed, please retry');
  });

  it('classifies the failures', () => {
    expect(loadFailureKind(new ApiError('NETWORK', 'x'), true)).toBe('connection');
    expect(loadFailureKind(new ApiError('TIMEOUT', 'x'), true)).toBe('timeout');
    expect(loadFailureKind(httpError(503), true)).toBe('http');
    expect(loadFailureKind(new ApiError('PARSE', 'x', 200), true)).toBe('server');
    expect(loadFailureKind(new ApiError('x', 'y', 400), true)).toBe('failed');
    expect(loadFailureKind(new Error('boom'), true)).toBe('unknown');
    expect(loadFailureKind(new Error('boom'), false)).toBe('offline');
  });
});

describe('loadFailureText (zh)', () => {
  it('gives the Chinese texts', async () => {
    await i18n.changeLanguage('zh');
    expect(STATUSES.map((s) => loadFailureText(httpError(s), true))).toEqual([
      '错误请求',
      '授权已过期，请重新登录',
      '拒绝访问',
      '请求的资源不存在',
      '请求方法不允许',
      '请求超时',
      '服务器错误',
      '服务未实现',
      '网络错误',
      '服务不可用',
      '网络超时',
      'HTTP版本不受支持',
    ]);
    expect(loadFailureText(new ApiError('NETWORK', 'x'), true)).toBe('连接服务器失败');
    expect(loadFailureText(new ApiError('TIMEOUT', 'x'), true)).toBe('请求超时');
    expect(loadFailureText(new ApiError('NETWORK', 'x'), false)).toBe('网络未连接，请检查网络设置');
    expect(loadFailureText(new ApiError('SYS.0015', 'x', 200), true)).toBe('登录已过期，请重新登录');
    expect(loadFailureText(new Error('boom'), true)).toBe('加载失败，请重试');
  });
});
