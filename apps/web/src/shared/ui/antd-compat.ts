/**
 * antd-mobile 5 on React 19: its imperative APIs (Toast, Dialog.confirm, Modal) mount their own roots
 * and need a render function, since ReactDOM.render is gone in React 19
 * (https://mobile.ant.design/guide/v5-for-19). Imported once by main.tsx, and by the test setup.
 */
import { unstableSetRender } from 'antd-mobile';
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
