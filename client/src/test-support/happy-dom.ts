/** happy-dom's own window API (URL and viewport), for DOM tests. */
export interface HappyDomApi {
  setURL(url: string): void
  setViewport(viewport: { width?: number; height?: number }): void
}

export function happyDom(): HappyDomApi {
  const api: unknown = Reflect.get(window, 'happyDOM')
  if (
    typeof api !== 'object' ||
    api === null ||
    !('setURL' in api) ||
    typeof api.setURL !== 'function' ||
    !('setViewport' in api) ||
    typeof api.setViewport !== 'function'
  ) {
    throw new Error('not running under happy-dom')
  }
  const { setURL, setViewport } = api
  return {
    setURL: (url) => setURL.call(api, url),
    setViewport: (viewport) => setViewport.call(api, viewport),
  }
}
