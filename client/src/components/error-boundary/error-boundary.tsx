import { Component, type ErrorInfo, type ReactNode } from 'react'
import './error-boundary.css'

export interface ErrorBoundaryProps {
  children: ReactNode
  /** What the failed part was, for the message: 公告, 余额… */
  label?: string
}

interface State {
  error: Error | null
}

/** Keeps one failing panel from blanking the page: it shows a short notice with a retry instead. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.label ?? 'panel'} failed`, error, info.componentStack)
  }

  private retry = () => this.setState({ error: null })

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <div className="error-boundary" role="alert">
        <span>{this.props.label ? `${this.props.label}加载失败` : '这部分内容加载失败'}</span>
        <button type="button" className="error-boundary__retry" onClick={this.retry}>
          重试
        </button>
      </div>
    )
  }
}
