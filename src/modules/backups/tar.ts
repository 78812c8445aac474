// A plain POSIX tar (ustar), written and read a chunk at a time so memory stays bounded whatever the size of
// the database. Tar rather than zip: entries are read front to back (the manifest first), every standard
// tool lists and unpacks it, and the files are stored as they are (a database barely compresses).
// Sizes of 8 GiB and above use the base-256 size field GNU tar and bsdtar read.
import { open, type FileHandle } from "node:fs/promises";

const BLOCK = 512;
const CHUNK = 1024 * 1024;
const OCTAL_SIZE_MAX = 8 ** 11;

/** Appends tar entries to an open file. */
export class TarWriter {
  constructor(private readonly out: FileHandle) {}

  /** One entry from bytes in memory (the manifest). */
  async addBytes(name: string, bytes: Uint8Array): Promise<void> {
    await this.out.write(header(name, bytes.length));
    await this.out.write(bytes);
    await this.pad(bytes.length);
  }

  /** One entry streamed from a file of `size` bytes; `onChunk` sees every chunk (checksums, progress). */
  async addFile(name: string, path: string, size: number, onChunk: (chunk: Uint8Array) => void): Promise<void> {
    await this.out.write(header(name, size));
    let written = 0;
    for await (const chunk of fileChunks(path)) {
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew while it was being archived`);
      onChunk(chunk);
      await this.out.write(chunk);
    }
    if (written !== size) throw new Error(`${name} changed size while it was being archived (${written} of ${size} bytes)`);
    await this.pad(size);
  }

  /** The two zero blocks that end an archive. */
  async end(): Promise<void> {
    await this.out.write(new Uint8Array(BLOCK * 2));
  }

  private async pad(size: number) {
    const rest = size % BLOCK;
    if (rest) await this.out.write(new Uint8Array(BLOCK - rest));
  }
}

/**
 * A file's bytes a chunk at a time. Each read is a real I/O callback, so timers and requests run between
 * chunks (a file stream whose data is ready resolves in microtasks and held the event loop for a whole file).
 */
export async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  try {
    for (;;) {
      const buffer = new Uint8Array(CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function header(name: string, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const { prefix, base } = splitName(name);
  const put = (text: string, at: number, length: number) => block.set(new TextEncoder().encode(text).subarray(0, length), at);
  put(base, 0, 100);
  put("0000644\0", 100, 8);
  put("0000000\0", 108, 8);
  put("0000000\0", 116, 8);
  if (size < OCTAL_SIZE_MAX) put(`${size.toString(8).padStart(11, "0")}\0`, 124, 12);
  else writeBase256(block, 124, 12, size);
  put(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, "0")}\0`, 136, 12);
  put("        ", 148, 8);
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put(prefix, 345, 155);
  const sum = block.reduce((a, b) => a + b, 0);
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return block;
}

/** ustar keeps a name of up to 255 bytes as a prefix (a folder) and a base of up to 100. */
function splitName(name: string): { prefix: string; base: string } {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  if (bytes(name) <= 100) return { prefix: "", base: name };
  for (let cut = name.indexOf("/"); cut !== -1; cut = name.indexOf("/", cut + 1)) {
    const prefix = name.slice(0, cut);
    const base = name.slice(cut + 1);
    if (bytes(prefix) <= 155 && bytes(base) <= 100) return { prefix, base };
  }
  throw new Error(`the path ${name} is too long for the archive (255 bytes at most)`);
}

function writeBase256(block: Uint8Array, at: number, length: number, value: number) {
  let v = BigInt(value);
  for (let i = at + length - 1; i > at; i--) {
    block[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  block[at] = 0x80;
}

export interface TarEntry {
  name: string;
  size: number;
}

/** Reads entries front to back; the data of each entry is read (or skipped) before the next header. */
export class TarReader {
  private at = 0;
  constructor(private readonly input: FileHandle, private readonly length: number) {}

  /** The next entry, or null at the end of the archive. Throws on a damaged header. */
  async next(): Promise<TarEntry | null> {
    for (;;) {
      if (this.at + BLOCK > this.length) return null;
      const block = await this.read(this.at, BLOCK);
      if (block.every((b) => b === 0)) return null;
      if (!checksumHolds(block)) throw new Error(`the archive is damaged at byte ${this.at} (a header's checksum does not hold)`);
      const type = String.fromCharCode(block[156]!);
      const size = readSize(block);
      const name = [text(block, 345, 155), text(block, 0, 100)].filter(Boolean).join("/");
      this.at += BLOCK;
      this.dataAt = this.at;
      this.dataSize = size;
      this.at += Math.ceil(size / BLOCK) * BLOCK;
      if (type === "0" || type === "\0") return { name, size };
      // Folders and extended headers carry no file: skipped.
    }
  }

  private dataAt = 0;
  private dataSize = 0;

  /** The chunks of the current entry's data; a cut archive ends them early (the caller sees fewer bytes). */
  async *data(): AsyncGenerator<Uint8Array> {
    const end = Math.min(this.dataAt + this.dataSize, this.length);
    for (let at = this.dataAt; at < end; at += CHUNK) yield await this.read(at, Math.min(CHUNK, end - at));
  }

  private async read(position: number, length: number): Promise<Uint8Array> {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await this.input.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  }
}

function text(block: Uint8Array, at: number, length: number): string {
  const field = block.subarray(at, at + length);
  const end = field.indexOf(0);
  return new TextDecoder().decode(end === -1 ? field : field.subarray(0, end));
}

function readSize(block: Uint8Array): number {
  if (block[124]! & 0x80) {
    let v = 0n;
    for (let i = 125; i < 136; i++) v = (v << 8n) | BigInt(block[i]!);
    return Number(v);
  }
  return parseInt(text(block, 124, 12).trim() || "0", 8);
}

function checksumHolds(block: Uint8Array): boolean {
  const stored = parseInt(text(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === stored;
}
