import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { networkHelp, ping } from '@shared/contract/content'
import Button from 'antd-mobile/es/components/button'
import { useEffect, useRef, useState } from 'react'
import { ArticleList } from './article-list'
import { classifyRoundTrip, medianMs, QUALITY_LABEL } from './content-format'
import './content.css'

const SAMPLES = 5

/**
 * Times `SAMPLES` round trips to the ping endpoint one after another; a failed one is left out.
 * Answers false when the server does not offer the endpoint (nothing more is asked then).
 */
async function measure(onSample: (ms: number) => void): Promise<boolean> {
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now()
    try {
      await callApi(ping)
      onSample(performance.now() - started)
    } catch (err) {
      if (isEndpointMissing(err)) return false
      // callApi showed the failure; the remaining samples still tell how the line is.
    }
  }
  return true
}

/** Network help: how fast the server answers from here, and the connection guide. */
export function VpnPage() {
  const { data, error, mutate } = useApi(networkHelp, undefined)
  const help = availabilityOf(data, error)
  const [samples, setSamples] = useState<number[]>([])
  const [pingMissing, setPingMissing] = useState(false)
  const [running, busyRun] = useBusy()

  const run = () =>
    busyRun(async () => {
      setSamples([])
      if (!(await measure((ms) => setSamples((list) => [...list, ms])))) setPingMissing(true)
    })

  // Measured once as soon as the thresholds are known, so the answer is there on arrival.
  const measuredOnce = useRef(false)
  // Without the guide (a server that does not offer it) the line is still measured, unrated.
  const ready = data !== undefined || help === 'missing'
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the help arrives; run is re-created each render
  useEffect(() => {
    if (!ready || measuredOnce.current) return
    measuredOnce.current = true
    void run()
  }, [ready])

  const median = medianMs(samples)
  const quality = median !== null && data ? classifyRoundTrip(median, data.good_ms, data.fair_ms) : null

  return (
    <PageShell title="网络帮助">
      <div className="content">
        <section className="content__card" aria-label="网络测速">
          <h2 className="content__title">连接测速</h2>
          <p className="content__big" data-testid="round-trip">
            {median === null ? '—' : `${median} ms`}
            {quality ? (
              <span className={`content__quality--${quality}`}> {QUALITY_LABEL[quality]}</span>
            ) : null}
          </p>
          <p className="content__meta">
            {samples.length > 0
              ? `已测 ${samples.length}/${SAMPLES} 次：${samples.map((ms) => Math.round(ms)).join(' / ')} ms`
              : '测量到服务器的往返时间'}
          </p>
          {data ? (
            <p className="content__meta">
              ≤{data.good_ms} ms 良好 · ≤{data.fair_ms} ms 一般 · 更慢为较差，建议按下方指引切换网络或加速
            </p>
          ) : null}
          {pingMissing ? (
            <p className="content__meta" data-testid="endpoint-missing">
              当前服务暂不支持测速。
            </p>
          ) : (
            <Button color="primary" loading={running} disabled={!ready} onClick={run}>
              {samples.length > 0 ? '重新测速' : '开始测速'}
            </Button>
          )}
        </section>
        <ReadState availability={help} onRetry={() => void mutate()} missing="hide">
          <h2 className="content__title">连接指引</h2>
          <ArticleList articles={data?.list} />
        </ReadState>
      </div>
    </PageShell>
  )
}
