// The stand-in must speak Ollama's API well enough for the official client: other tests rely on it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Ollama } from "ollama";
import { DEFAULT_REPLY, startOllamaStandin, type OllamaStandin } from "../support/ollama-standin.ts";

let standin: OllamaStandin;
let client: Ollama;

beforeAll(() => {
  standin = startOllamaStandin({ reply: (body) => `echo: ${body.prompt ?? body.messages?.at(-1)?.content}` });
  client = new Ollama({ host: standin.url });
});
afterAll(async () => {
  await standin.stop();
});

describe("Ollama stand-in", () => {
  test("generate, non-streaming and streaming", async () => {
    const whole = await client.generate({ model: "llama3.2", prompt: "hi there", stream: false });
    expect(whole).toMatchObject({ model: "llama3.2", response: "echo: hi there", done: true, done_reason: "stop" });

    const pieces: string[] = [];
    for await (const part of await client.generate({ model: "llama3.2:latest", prompt: "one two three", stream: true })) {
      pieces.push(part.response ?? "");
    }
    expect(pieces.join("")).toBe("echo: one two three");
  });

  test("chat streams NDJSON by default, ending with a done:true line", async () => {
    const response = await fetch(`${standin.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "llama3.2", messages: [{ role: "user", content: "a b" }] }),
    });
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await response.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: "stop" });
    expect(lines.slice(0, -1).every((l) => l.done === false && l.message.role === "assistant")).toBe(true);
    expect(lines.map((l) => l.message.content).join("")).toBe("echo: a b");
  });

  test("embed gives one deterministic unit vector per input", async () => {
    const { embeddings } = await client.embed({ model: "nomic-embed-text", input: ["a", "b", "a"] });
    expect(embeddings).toHaveLength(3);
    expect(Math.hypot(...embeddings[0]!)).toBeCloseTo(1, 6);
    expect(embeddings[2]).toEqual(embeddings[0]!);
    expect(embeddings[1]).not.toEqual(embeddings[0]!);
    const single = await client.embed({ model: "nomic-embed-text", input: "a" });
    expect(single.embeddings).toEqual([embeddings[0]!]);
  });

  test("tags and version", async () => {
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual(["llama3.2:latest", "nomic-embed-text:latest"]);
    expect((await client.version()).version).toBe("0.6.4-standin");
  });

  test("errors are {error} bodies with HTTP statuses the client reports", async () => {
    const unknown = await client.chat({ model: "nope", messages: [] }).catch((e) => e);
    expect(unknown).toMatchObject({ status_code: 404, error: "model 'nope' not found" });

    const raw = async (path: string, body: string) => {
      const response = await fetch(`${standin.url}${path}`, { method: "POST", body });
      return [response.status, await response.json()] as const;
    };
    expect(await raw("/api/chat", "{not json")).toEqual([400, { error: expect.any(String) }]);
    expect(await raw("/api/chat", "{}")).toEqual([400, { error: "model is required" }]);
    expect(await raw("/api/embed", JSON.stringify({ model: "nomic-embed-text", input: [1] }))).toEqual([
      400,
      { error: expect.any(String) },
    ]);
    expect(await raw("/api/nothing", "{}")).toEqual([404, { error: "404 page not found" }]);
  });

  test("setReply, setFail and the request log", async () => {
    standin.setReply(() => DEFAULT_REPLY);
    standin.setFail(500);
    await expect(client.version()).rejects.toMatchObject({ status_code: 500 });
    standin.setFail(null);
    const answer = await client.chat({ model: "llama3.2", messages: [{ role: "user", content: "x" }], stream: false });
    expect(answer.message).toEqual({ role: "assistant", content: DEFAULT_REPLY });
    expect(standin.requests.at(-1)).toMatchObject({ method: "POST", path: "/api/chat", body: { stream: false } });
  });
});
