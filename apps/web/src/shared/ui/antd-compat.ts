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

/** The roots antd-mobile's imperative APIs have mounted and not yet unmounted. */
const mounted = new Map<Root, Container>();

function unmount(root: Root): void {
  const c = mounted.get(root);
  if (!c) return;
  mounted.delete(root);
  root.unmount();
  if (c._exReactRoot === root) delete c._exReactRoot;
}

unstableSetRender((node, container) => {
  const c = container as Container;
  let root = c._exReactRoot;
  if (!root) {
    root = createRoot(c);
    c._exReactRoot = root;
    mounted.set(root, c);
  }
  root.render(node);
  const r = root;
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    unmount(r);
  };
});

/**
 * Unmounts, at once, every root a toast, dialog or modal still holds (a closing animation would unmount it later).
 * For tests: a root left to its animation can update React after the test file's jsdom window is gone. An unmount
 * the animation asks for afterwards does nothing.
 */
export function unmountImperativeRoots(): void {
  for (const root of [...mounted.keys()]) unmount(root);
}
