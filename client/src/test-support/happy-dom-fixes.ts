/**
 * Test set-up for files that run under happy-dom: two places where it differs from browsers and
 * which DOMPurify depends on are made to behave as a browser does. In the node environment (and in
 * a browser) this does nothing.
 *
 * 1. `nodeName`: a browser defines it once, on Node.prototype, and DOMPurify reads it through that
 *    getter (so an element cannot fake its name). happy-dom's Node.prototype getter answers '' and
 *    each subclass overrides it.
 * 2. NodeIterator: a browser's stays valid when the node it stands on is removed (it steps back to
 *    the node before it); happy-dom's stops. DOMPurify removes nodes while iterating.
 */

type Filter = ((node: Node) => number) | { acceptNode(node: Node): number } | null

class LiveNodeIterator {
  private reference: Node
  private beforeReference = true
  /** The node before the reference in tree order, where to go on from if the reference is removed. */
  private preceding: Node | null = null

  constructor(
    readonly root: Node,
    readonly whatToShow: number,
    readonly filter: Filter,
  ) {
    this.reference = root
  }

  nextNode(): Node | null {
    let node: Node | null = this.reference
    let before = this.beforeReference
    if (node !== this.root && !this.root.contains(node)) {
      node = this.preceding && this.root.contains(this.preceding) ? this.preceding : this.root
      before = node === this.root && this.preceding === null
    }
    for (;;) {
      if (before) before = false
      else {
        node = this.following(node)
        if (!node) return null
      }
      if (this.accepts(node)) {
        this.preceding = this.precedingOf(node)
        this.reference = node
        this.beforeReference = false
        return node
      }
    }
  }

  previousNode(): Node | null {
    throw new Error('previousNode is not needed by the tests')
  }

  detach(): void {}

  private following(node: Node): Node | null {
    if (node.firstChild) return node.firstChild
    for (let n: Node | null = node; n && n !== this.root; n = n.parentNode) {
      if (n.nextSibling) return n.nextSibling
    }
    return null
  }

  private precedingOf(node: Node): Node | null {
    if (node === this.root) return null
    let n = node.previousSibling
    if (!n) return node.parentNode
    while (n.lastChild) n = n.lastChild
    return n
  }

  private accepts(node: Node): boolean {
    if (!(this.whatToShow & (1 << (node.nodeType - 1)))) return false
    const f = this.filter
    if (!f) return true
    return (typeof f === 'function' ? f(node) : f.acceptNode(node)) === 1
  }
}

if (typeof navigator !== 'undefined' && /HappyDOM/.test(navigator.userAgent) && globalThis.Node) {
  const nodeProto = globalThis.Node.prototype
  Object.defineProperty(nodeProto, 'nodeName', {
    configurable: true,
    get(this: Node) {
      for (let p = Object.getPrototypeOf(this); p && p !== nodeProto; p = Object.getPrototypeOf(p)) {
        const getter = Object.getOwnPropertyDescriptor(p, 'nodeName')?.get
        if (getter) return getter.call(this)
      }
      return ''
    },
  })
  // Patched where the method is defined, so every document sees it (DOMPurify uses an inert one).
  const inert = document.createElement('template').content.ownerDocument
  for (const doc of [document, inert]) {
    let owner = Object.getPrototypeOf(doc)
    while (owner && !Object.hasOwn(owner, 'createNodeIterator')) owner = Object.getPrototypeOf(owner)
    if (!owner) continue
    Object.defineProperty(owner, 'createNodeIterator', {
      configurable: true,
      writable: true,
      value(root: Node, whatToShow = 0xffffffff, filter: Filter = null) {
        return new LiveNodeIterator(root, whatToShow >>> 0, filter)
      },
    })
  }
}
