// The page's shell (index.html #boot) lies over the app until the first page has rendered: a lazy page dismisses it
// once its content is committed (not while its chunk loads), a page that holds it leaves it, and a failed chunk's
// retry screen dismisses it so the failure is seen.
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { lazyPage } from './lazy-page';
import { dismissBootShell } from '../ui/boot-shell';

function withShell() {
  document.body.insertAdjacentHTML('afterbegin', '<div id="boot"><div class="boot-shell">Exchange</div></div>');
}
afterEach(() => {
  dismissBootShell();
});

describe('lazyPage and the boot shell', () => {
  it('keeps the shell while the chunk loads and dismisses it when the page has rendered', async () => {
    withShell();
    let resolve!: (m: { default: () => ReactNode }) => void;
    const Page = lazyPage(() => new Promise((r) => (resolve = r)));
    render(<Page />);
    expect(document.getElementById('boot')).not.toBeNull();
    resolve({ default: () => <p>page body</p> });
    expect(await screen.findByText('page body')).toBeInTheDocument();
    expect(document.getElementById('boot')).toBeNull();
  });

  it('leaves the shell to a page that holds it', async () => {
    withShell();
    const Page = lazyPage(async () => ({ default: () => <p>home body</p> }), [], { holdsBootShell: true });
    render(<Page />);
    expect(await screen.findByText('home body')).toBeInTheDocument();
    expect(document.getElementById('boot')).not.toBeNull();
  });

  it('dismisses the shell when the chunk fails, so the retry screen is seen', async () => {
    withShell();
    const Page = lazyPage(() => Promise.reject(new Error('chunk gone')), [], { holdsBootShell: true });
    render(<Page />);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(document.getElementById('boot')).toBeNull();
  });
});
