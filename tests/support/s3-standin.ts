// A loopback stand-in for an S3-compatible bucket: path-style PUT, GET, HEAD and DELETE of objects,
// with SigV4 presigned query strings accepted (and checked for presence and expiry, not cryptographically).
export interface S3Standin {
  url: string;
  objects: Map<string, { body: Uint8Array; type: string }>;
  requests: Array<{ method: string; path: string; presigned: boolean }>;
  stop(): void;
}

export function startS3Standin(bucket: string): S3Standin {
  const objects = new Map<string, { body: Uint8Array; type: string }>();
  const requests: S3Standin["requests"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const presigned = url.searchParams.has("X-Amz-Signature");
      requests.push({ method: req.method, path: url.pathname, presigned });
      const signed = presigned || (req.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256");
      if (!signed) return xml(403, "AccessDenied", "Missing signature");
      if (presigned) {
        const date = url.searchParams.get("X-Amz-Date") ?? "";
        const expires = Number(url.searchParams.get("X-Amz-Expires") ?? 0);
        const at = Date.UTC(+date.slice(0, 4), +date.slice(4, 6) - 1, +date.slice(6, 8), +date.slice(9, 11), +date.slice(11, 13), +date.slice(13, 15));
        if (!(at + expires * 1000 > Date.now())) return xml(403, "AccessDenied", "Request has expired");
      }
      const prefix = `/${bucket}/`;
      if (!url.pathname.startsWith(prefix)) return xml(404, "NoSuchBucket", "The specified bucket does not exist");
      const key = decodeURIComponent(url.pathname.slice(prefix.length));
      switch (req.method) {
        case "PUT":
          objects.set(key, { body: new Uint8Array(await req.arrayBuffer()), type: req.headers.get("content-type") ?? "application/octet-stream" });
          return new Response(null, { status: 200, headers: { etag: `"${Bun.hash(key)}"` } });
        case "GET":
        case "HEAD": {
          const object = objects.get(key);
          if (!object) return req.method === "HEAD" ? new Response(null, { status: 404 }) : xml(404, "NoSuchKey", "The specified key does not exist.");
          return new Response(req.method === "HEAD" ? null : new Blob([object.body as BlobPart]), {
            headers: { "content-type": object.type, "content-length": String(object.body.byteLength) },
          });
        }
        case "DELETE":
          objects.delete(key);
          return new Response(null, { status: 204 });
      }
      return xml(405, "MethodNotAllowed", "Method not allowed");
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, objects, requests, stop: () => server.stop(true) };
}

const xml = (status: number, code: string, message: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`, {
    status,
    headers: { "content-type": "application/xml" },
  });
