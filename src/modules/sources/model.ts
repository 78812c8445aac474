// Wire shapes of sources. Bodies are typed loosely here and normalized in normalize.ts, so every mistake
// gets an error that names its field instead of a vague "no union member matched".
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const title = t.String({ maxLength: 500 });
const externalId = t.String({ minLength: 1, maxLength: 200 });

export const v1SourceBody = t.Object({
  kind: t.Optional(t.String({ description: "`link` for a link; omit for text or note" })),
  mode: t.Optional(t.String({ description: "`note` stores the content verbatim (no synthesis)" })),
  url: t.Optional(t.String({ description: "link: the URL to fetch" })),
  title: t.Optional(title),
  content: t.Optional(t.String({ description: "text or note body (markdown)" })),
  sourceUrl: t.Optional(t.String({ description: "text: where the passage comes from" })),
  externalId: t.Optional(externalId),
  // The unversioned surface's field, read only to refuse it with a pointer (unknown fields are otherwise dropped).
  type: t.Optional(t.Unknown({ description: "Not a v1 field: refused (422) with a pointer to `kind` and `mode`" })),
});

export const unversionedSourceBody = t.Object({
  type: t.String({ description: "`link`, `text` or `note`" }),
  // The v1 surface's fields, read only to refuse them with a pointer to `type`.
  kind: t.Optional(t.Unknown({ description: "Not a field here: refused (422) with a pointer to `type`" })),
  mode: t.Optional(t.Unknown({ description: "Not a field here: refused (422) with a pointer to `type`" })),
  url: t.Optional(t.String()),
  title: t.Optional(title),
  content: t.Optional(t.String({ description: "text: the passage" })),
  body: t.Optional(t.String({ description: "note: the markdown stored verbatim" })),
  sourceUrl: t.Optional(t.String()),
  externalId: t.Optional(externalId),
});

export const uploadUrlBody = t.Object({
  filename: t.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  contentType: t.String({ minLength: 3, maxLength: 127, pattern: "^[\\w.+-]+/[\\w.+-]+(;.*)?$" }),
  // TypeBox's own Integer: Elysia's t.Integer also takes "5" and makes it 5 (no silent coercion).
  size: Type.Integer({ minimum: 1 }),
});

export const sourceParams = t.Object({ brainId: t.String(), sourceId: t.String() });
