// The help centre's pure parts: a download link made absolute for its QR code (site paths only; https as it is), and
// the search match highlighted in a result (case-insensitive, first match only).
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { absoluteLink } from './components/LinkQr';
import { highlight } from './pages/HelpSearchPage';

describe('help centre', () => {
  it('makes site paths absolute for the QR code', () => {
    expect(absoluteLink('/', 'http://10.0.0.2:8080')).toBe('http://10.0.0.2:8080/');
    expect(absoluteLink('/downloads/app.apk', 'https://ex.example')).toBe('https://ex.example/downloads/app.apk');
    expect(absoluteLink('https://apps.example/id1', 'https://ex.example')).toBe('https://apps.example/id1');
  });
  it('marks the first match of the search words', () => {
    const { container } = render(<p>{highlight('Why are Withdrawals reviewed? withdrawals', 'withdrawals')}</p>);
    expect(container.querySelectorAll('mark')).toHaveLength(1);
    expect(container.querySelector('mark')!.textContent).toBe('Withdrawals');
    expect(container.textContent).toBe('Why are Withdrawals reviewed? withdrawals');
  });
});
