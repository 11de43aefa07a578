import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render'
import { createRoot, type Root } from 'react-dom/client'

/**
 * antd-mobile 5 renders Toast, Dialog and other imperative pieces with ReactDOM.render, which
 * React 19 removed. Its React 19 guide registers a createRoot-based renderer instead.
 */
const roots = new WeakMap<Element | DocumentFragment, Root>()

unstableSetRender((node, container) => {
  let root = roots.get(container)
  if (!root) {
    root = createRoot(container)
    roots.set(container, root)
  }
  root.render(node)
  return async () => {
    // Unmounting during React's own render pass warns; wait for the current task to end.
    await new Promise((resolve) => setTimeout(resolve, 0))
    root.unmount()
    roots.delete(container)
  }
})
