// The real `ollama` client, through our adapter, against the loopback Ollama stand-in.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createOllamaGenerator, GeneratorUnavailableError, type ChatMessage } from "../../src/ai/generator.ts";
import { DEFAULT_REPLY, startOllamaStandin, type OllamaStandin } from "../support/ollama-standin.ts";

let ollama: OllamaStandin;
const question: ChatMessage[] = [
  { role: "system", content: "Answer from the pages." },
  { role: "user", content: "What is a brain?" },
];

beforeAll(() => {
  ollama = startOllamaStandin();
});
afterEach(() => {
  ollama.setReply(() => DEFAULT_REPLY);
  ollama.setFail(null);
});
afterAll(async () => {
  await ollama.stop();
});

/** A loopback URL nobody listens on. */
async function closedPortUrl(): Promise<string> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const url = `http://127.0.0.1:${server.port}`;
  await server.stop(true);
  return url;
}

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe("createOllamaGenerator chat", () => {
  test("answers without streaming and sends model, messages and temperature", async () => {
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    expect(generator.name).toBe("ollama:llama3.2");
    expect(await generator.chat(question, { temperature: 0.2 })).toBe(DEFAULT_REPLY);
    const sent = ollama.requests.at(-1)!;
    expect(sent.path).toBe("/api/chat");
    expect(sent.body).toMatchObject({ model: "llama3.2", messages: question, stream: false, options: { temperature: 0.2 } });
  });

  test("the stand-in can answer from the prompt", async () => {
    ollama.setReply((body) => `You asked: ${body.messages.at(-1).content}`);
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    expect(await generator.chat(question)).toBe("You asked: What is a brain?");
  });

  test("streams tokens in order when onToken is given", async () => {
    const answer = "A brain is a knowledge base [[brain]] with pages, sources and answers.";
    ollama.setReply(() => answer);
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    const tokens: string[] = [];
    const result = await generator.chat(question, { onToken: (t) => tokens.push(t) });
    expect(result).toBe(answer);
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.join("")).toBe(answer);
    expect(tokens[0]).toBe("A ");
    expect(ollama.requests.at(-1)!.body.stream).toBe(true);
  });

  test("an onToken callback that throws surfaces its own error", async () => {
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    const boom = new Error("client went away");
    const error = await failure(generator.chat(question, { onToken: () => { throw boom; } }));
    expect(error).toBe(boom);
  });

  test("Ollama down (closed port) is GeneratorUnavailableError, streaming or not", async () => {
    const generator = createOllamaGenerator({ host: await closedPortUrl(), model: "llama3.2" });
    for (const opts of [{}, { onToken: () => {} }]) {
      const error = await failure(generator.chat(question, opts));
      expect(error).toBeInstanceOf(GeneratorUnavailableError);
      expect((error as Error).message).toMatch(/is not reachable/);
    }
  });

  test("an unknown model is GeneratorUnavailableError saying which model to pull", async () => {
    const generator = createOllamaGenerator({ host: ollama.url, model: "mistral" });
    for (const opts of [{}, { onToken: () => {} }]) {
      const error = await failure(generator.chat(question, opts));
      expect(error).toBeInstanceOf(GeneratorUnavailableError);
      expect((error as GeneratorUnavailableError).status).toBe(404);
      expect((error as Error).message).toContain("model 'mistral' not found");
      expect((error as Error).message).toContain("ollama pull mistral");
    }
  });

  test("an {error} answer with a 5xx status is GeneratorUnavailableError carrying the status", async () => {
    ollama.setFail(503);
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    const error = await failure(generator.chat(question, { onToken: () => {} }));
    expect(error).toBeInstanceOf(GeneratorUnavailableError);
    expect((error as GeneratorUnavailableError).status).toBe(503);
    expect((error as Error).message).toContain("stand-in failure");
  });

  test("a reply failing inside Ollama (500) is GeneratorUnavailableError", async () => {
    ollama.setReply(() => {
      throw new Error("out of memory");
    });
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    const error = await failure(generator.chat(question));
    expect(error).toBeInstanceOf(GeneratorUnavailableError);
    expect((error as Error).message).toContain("out of memory");
  });

  test("a slow Ollama times out as GeneratorUnavailableError", async () => {
    const slow = startOllamaStandin({ delayMs: 1_000 });
    try {
      const generator = createOllamaGenerator({ host: slow.url, model: "llama3.2", timeoutMs: 100 });
      // The stand-in answers after 1 s: the error naming the 100 ms bound shows the timeout ended the call.
      for (const opts of [{}, { onToken: () => {} }]) {
        const error = await failure(generator.chat(question, opts));
        expect(error).toBeInstanceOf(GeneratorUnavailableError);
        expect((error as Error).message).toContain("did not answer within 100 ms");
      }
    } finally {
      await slow.stop();
    }
  });

  test("the caller's abort stays an abort, not unavailability", async () => {
    const slow = startOllamaStandin({ delayMs: 1_000 });
    try {
      const generator = createOllamaGenerator({ host: slow.url, model: "llama3.2" });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const error = await failure(generator.chat(question, { signal: controller.signal }));
      expect(error).not.toBeInstanceOf(GeneratorUnavailableError);
      expect((error as Error).name).toBe("AbortError");

      const before = slow.requests.length;
      const preAborted = await failure(generator.chat(question, { signal: AbortSignal.abort() }));
      expect((preAborted as Error).name).toBe("AbortError");
      expect(slow.requests.length).toBe(before);
    } finally {
      await slow.stop();
    }
  });

  test("rejects malformed messages before calling Ollama", async () => {
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    const before = ollama.requests.length;
    const bad: unknown[] = [[], "hi", [{ role: "tool", content: "x" }], [{ role: "user", content: 42 }], [null]];
    for (const messages of bad) {
      await expect(generator.chat(messages as ChatMessage[])).rejects.toThrow(TypeError);
    }
    expect(ollama.requests.length).toBe(before);
  });

  test("needs an explicit host and model", () => {
    expect(() => createOllamaGenerator({ host: "", model: "llama3.2" })).toThrow(TypeError);
    expect(() => createOllamaGenerator({ host: ollama.url, model: "" })).toThrow(TypeError);
  });
});

describe("createOllamaGenerator ping", () => {
  test("reports the server version", async () => {
    const generator = createOllamaGenerator({ host: ollama.url, model: "llama3.2" });
    expect(await generator.ping()).toEqual({ ok: true, version: "0.6.4-standin" });
    expect(ollama.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/version" });
  });

  test("reports a closed port without throwing", async () => {
    const result = await createOllamaGenerator({ host: await closedPortUrl(), model: "llama3.2" }).ping();
    expect(result.ok).toBe(false);
    expect(result.error).toContain("not reachable");
  });

  test("gives up quickly on a server that does not answer", async () => {
    const slow = startOllamaStandin({ delayMs: 10_000 });
    try {
      // The stand-in would answer (ok) after 10 s: not ok means the ping gave up first.
      const result = await createOllamaGenerator({ host: slow.url, model: "llama3.2" }).ping();
      expect(result.ok).toBe(false);
    } finally {
      await slow.stop();
    }
  });
});
