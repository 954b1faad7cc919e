import { Component, type ComponentChildren } from 'preact';

interface ViewBoundaryProps {
  /** What failed, for the message: `this view`, `this row`. */
  what?: string;
  children: ComponentChildren;
}

/**
 * Catches an exception thrown while rendering its children and shows it in
 * their place, so one view's bad data never blanks the shell, the navigation
 * or another view. The shell keys one around each view by its address, so
 * moving elsewhere starts clean; _Try again_ re-renders in place (after a
 * reload of the data, say).
 */
export class ViewBoundary extends Component<ViewBoundaryProps, { error: Error | undefined }> {
  override state = { error: undefined as Error | undefined };

  static override getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown) {
    // The console is where a developer looks for the stack; the page says what failed.
    console.error(error);
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    return (
      <div class="error-box view-error" role="alert">
        <strong>Could not show {this.props.what ?? 'this view'}:</strong> {error.message}
        <button type="button" class="button small" onClick={() => this.setState({ error: undefined })}>
          Try again
        </button>
      </div>
    );
  }
}
