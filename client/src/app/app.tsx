import { useLayoutEffect } from 'react'
import { BrowserRouter, useNavigate } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { setNavigator } from '../lib/navigation'
import { apiFetcher } from '../lib/use-api'
import { AppRoutes } from './router'

const swrConfig = {
  fetcher: apiFetcher,
  // callApi already shows every failure once; SWR retrying would repeat the toast.
  shouldRetryOnError: false,
  revalidateOnFocus: false,
}

/** Lets code outside React (the HTTP client, session flows) navigate through the router. */
function RegisterNavigator() {
  const navigate = useNavigate()
  useLayoutEffect(() => {
    setNavigator((to, options) => void navigate(to, options))
    return () => setNavigator(null)
  }, [navigate])
  return null
}

export function App() {
  return (
    <SWRConfig value={swrConfig}>
      <BrowserRouter>
        <RegisterNavigator />
        <AppRoutes />
      </BrowserRouter>
    </SWRConfig>
  )
}
