/**
 * antd-mobile 5 on React 19: its imperative APIs (Toast, Dialog.confirm, Modal) mount their own roots
 * and need a render function, since ReactDOM.render is gone in React 19
 * (https://mobile.ant.design/guide/v5-for-19). Imported once by main.tsx, and by the test setup.
 *
 * Also loads antd-mobile's global styles (its CSS variables). The shell imports antd-mobile by deep paths
 * (antd-mobile/es/components/<name>), never the 'antd-mobile' barrel: the barrel links every component,
 * and the bundler then places any component some page uses (dialogs, toasts, react-spring) in the
 * initial chunk. The barrel itself is what loads the global styles, hence this import.
 */
import 'antd-mobile/es/global';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

type Container = (Element | DocumentFragment) & { _exReactRoot?: Root };

unstableSetRender((node, container) => {
  const c = container as Container;
  c._exReactRoot ??= createRoot(c);
  const root = c._exReactRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete c._exReactRoot;
  };
});
