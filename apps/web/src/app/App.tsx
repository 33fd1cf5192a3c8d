/** Root component: providers around the router. */
import { Providers } from './providers';
import { AppRouter } from './router';

/** The app. */
export function App() {
  return (
    <Providers>
      <AppRouter />
    </Providers>
  );
}
