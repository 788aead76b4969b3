import { Component, type ReactNode } from 'react';

/** Shows `fallback` instead of a screen that threw while rendering; `resetKey` changes clear it. */
export class ErrorBoundary extends Component<{ fallback: (retry: () => void) => ReactNode; resetKey?: string; children: ReactNode }, { failed: boolean; key?: string }> {
  override state: { failed: boolean; key?: string } = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { failed: boolean; key?: string }) {
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown): void {
    console.error('screen failed', error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}
