// Reads a whole text/event-stream response into events (test helper).
export interface SseEvent {
  event: string;
  data: string;
}

export async function readEvents(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
        else if (line.startsWith("data:")) data.push(line.slice(5));
      }
      return { event, data: data.join("\n") };
    });
}
