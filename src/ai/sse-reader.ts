// Reads a text/event-stream body into the `data` of each event (https://html.spec.whatwg.org/#server-sent-events):
// lines `data: …` joined by newlines, an empty line ends the event, `:` lines are comments (keep-alives).
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onChunk();
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.search(/\r?\n/)) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(buffered[newline] === "\r" ? newline + 2 : newline + 1);
        if (line === "") {
          if (data.length) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
    }
    // A last event without its blank line still counts (some servers close right after `data: [DONE]`).
    if (buffered.startsWith("data:")) data.push(buffered.slice(buffered.startsWith("data: ") ? 6 : 5));
    if (data.length) yield data.join("\n");
  } finally {
    // Frees the connection when the caller stops early (abort, a callback that threw); no-op once done.
    await reader.cancel().catch(() => undefined);
  }
}
