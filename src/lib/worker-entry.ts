// Where a worker thread's entrypoint is. From a source checkout: the file beside its caller. In the compiled
// binary every entrypoint keeps its path relative to src/ under the bundle's root (scripts/build-binary.ts
// lists them), and a relative path there resolves from that root, not from the caller.
export function workerEntry(pathFromSrc: string, beside: URL): string {
  return beside.href.includes("/$bunfs/") ? `./${pathFromSrc}` : beside.href;
}
