import { useState } from 'react'
import { RouterProvider } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { setNavigator } from '../lib/navigation'
import { apiFetcher } from '../lib/use-api'
import { createAppRouter } from './router'

const swrConfig = {
  fetcher: apiFetcher,
  // callApi already shows every failure once; SWR retrying would repeat the toast.
  shouldRetryOnError: false,
  revalidateOnFocus: false,
}

export function App() {
  const [router] = useState(() => {
    const created = createAppRouter()
    setNavigator((to, options) => void created.navigate(to, options))
    return created
  })
  return (
    <SWRConfig value={swrConfig}>
      <RouterProvider router={router} />
    </SWRConfig>
  )
}
