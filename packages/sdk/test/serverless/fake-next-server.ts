// Stands in for `next/server` in the Next.js example: `after(task)` keeps the
// task until the response is sent, then the platform runs it and waits for it
// (on Vercel, through the request's waitUntil), as Next.js does.
type AfterTask = (() => unknown) | PromiseLike<unknown>;

const tasks: AfterTask[] = [];

/** Next.js `after`: schedule work for after the response. */
export function after(task: AfterTask): void {
  tasks.push(task);
}

/** The platform side: run what `after` scheduled, once the response is out. */
export function takeAfterTasks(): Promise<unknown>[] {
  return tasks
    .splice(0)
    .map((task) => Promise.resolve().then(() => (typeof task === 'function' ? task() : task)));
}
