/**
 * Long synchronous work that runs on promise continuations (a thousand pages rendered after one
 * batch of bodies arrived) never lets the event loop turn: no timer fires, a request's deadline
 * included, and no other request is read until it ends. Pieces of such work go through
 * `runInSlice`: they run at once while the current slice of `SLICE_MS` lasts; past it, they wait
 * for the next turn of the loop, in the order they came, and run there, a slice at a time.
 */
const SLICE_MS = 10;

/** When the current slice ends; 0 once the event loop has turned since it began. */
let sliceEnds = 0;
let scheduled = false;
const waiting: (() => void)[] = [];

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(onTurn);
}

function onTurn(): void {
  scheduled = false;
  sliceEnds = 0;
  if (waiting.length === 0) return;
  sliceEnds = performance.now() + SLICE_MS;
  while (waiting.length && performance.now() < sliceEnds) waiting.shift()!();
  // Marks the end of this slice at the next turn, and runs there what is left.
  schedule();
}

/** Runs `work` now when the current slice has time left, else at a later turn of the event loop. */
export function runInSlice<T>(work: () => T): T | Promise<T> {
  if (waiting.length === 0) {
    if (sliceEnds === 0) {
      sliceEnds = performance.now() + SLICE_MS;
      schedule();
      return work();
    }
    if (performance.now() < sliceEnds) return work();
  }
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    });
    schedule();
  });
}
