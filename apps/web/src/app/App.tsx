/** Root component: providers around the router. */
import { RouterProvider } from 'react-router';
import { Providers } from './providers';
import { createAppRouter } from './router';

/**
 * One router for the page's lifetime, created at module level: under StrictMode a `useState` initializer runs
 * twice, and the shared navigator (used by the API client for the 401 / SYS.0015 redirect) would be left pointing
 * at the discarded router, so the URL changed while the screen did not.
 */
const router = createAppRouter();

/** The app. */
export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
