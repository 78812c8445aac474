// The first frame of a GIF, in grey. A GIF is a palette, LZW-compressed indices and a few blocks around
// them; no package the project carries decodes one (gifenc only encodes), and the format is small enough to
// read here: the first image descriptor is found, its indices decompressed (the table rebuilt as prefix and
// suffix arrays, so a hostile file cannot make it allocate more than 4,096 entries) and mapped through the
// local or global palette onto a white canvas of the logical screen's size.
import type { GrayImage } from "./raster.ts";

export class GifError extends Error {}

export function gifSize(bytes: Uint8Array): { width: number; height: number } {
  return { width: bytes[6]! | (bytes[7]! << 8), height: bytes[8]! | (bytes[9]! << 8) };
}

export function decodeGifFirstFrame(bytes: Uint8Array): GrayImage {
  let p = 6;
  const u8 = () => {
    if (p >= bytes.length) throw new GifError("the file ends early");
    return bytes[p++]!;
  };
  const u16 = () => u8() | (u8() << 8);
  const { width, height } = gifSize(bytes);
  p = 10;
  const screenFlags = u8();
  p += 2; // background colour index, aspect ratio
  let palette = screenFlags & 0x80 ? readPalette(bytes, p, screenFlags) : null;
  if (palette) p += palette.length * 3;
  let transparent = -1;
  for (;;) {
    const block = u8();
    if (block === 0x3b) throw new GifError("it has no image");
    if (block === 0x21) {
      const label = u8();
      const start = p;
      for (let size = u8(); size > 0; size = u8()) p += size;
      if (label === 0xf9 && bytes[start + 1]! & 1) transparent = bytes[start + 4]!;
      continue;
    }
    if (block !== 0x2c) throw new GifError(`an unknown block (0x${block.toString(16)})`);
    const left = u16();
    const top = u16();
    const frameWidth = u16();
    const frameHeight = u16();
    const flags = u8();
    if (flags & 0x80) {
      palette = readPalette(bytes, p, flags);
      p += palette.length * 3;
    }
    if (!palette) throw new GifError("it has no colour table");
    const minCodeSize = u8();
    const data: Uint8Array[] = [];
    for (let size = u8(); size > 0; size = u8()) data.push(bytes.subarray(p, (p += size)));
    const indices = lzw(minCodeSize, Buffer.concat(data), frameWidth * frameHeight);
    const rows = flags & 0x40 ? interlacedRows(frameHeight) : null;
    const canvas = new Uint8Array(width * height).fill(255);
    for (let row = 0; row < frameHeight; row++) {
      const y = top + (rows ? rows[row]! : row);
      if (y >= height) continue;
      for (let x = 0; x < frameWidth && left + x < width; x++) {
        const index = indices[row * frameWidth + x]!;
        if (index !== transparent) canvas[y * width + left + x] = palette[index] ?? 255;
      }
    }
    return { width, height, data: canvas };
  }
}

/** A colour table as grey levels. */
function readPalette(bytes: Uint8Array, at: number, flags: number): Uint8Array {
  const size = 1 << ((flags & 7) + 1);
  if (at + size * 3 > bytes.length) throw new GifError("its colour table is cut short");
  const grey = new Uint8Array(size);
  for (let i = 0; i < size; i++) grey[i] = (bytes[at + 3 * i]! * 77 + bytes[at + 3 * i + 1]! * 150 + bytes[at + 3 * i + 2]! * 29) >> 8;
  return grey;
}

/** Row order of an interlaced frame: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlacedRows(height: number): Uint32Array {
  const rows = new Uint32Array(height);
  let k = 0;
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]] as const) for (let y = start; y < height; y += step) rows[k++] = y;
  return rows;
}

function lzw(minCodeSize: number, data: Uint8Array, pixels: number): Uint8Array {
  if (minCodeSize < 1 || minCodeSize > 11) throw new GifError("its compressed data is damaged");
  const clear = 1 << minCodeSize;
  // Entry k is the string of entry prefix[k] followed by suffix[k]; codes below `clear` are single indices.
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  const out = new Uint8Array(pixels);
  let size = minCodeSize + 1;
  let next = clear + 2;
  let previous = -1;
  let written = 0;
  let bits = 0;
  let buffer = 0;
  for (let at = 0; written < pixels; ) {
    while (bits < size && at < data.length) {
      buffer |= data[at++]! << bits;
      bits += 8;
    }
    if (bits < size) break; // a frame cut short keeps what it has
    const code = buffer & ((1 << size) - 1);
    buffer >>>= size;
    bits -= size;
    if (code === clear) {
      [size, next, previous] = [minCodeSize + 1, clear + 2, -1];
      continue;
    }
    if (code === clear + 1) break;
    const known = code < next;
    if (previous === -1 ? code >= clear : code > next) throw new GifError("its compressed data is damaged");
    // A code one past the table (the "KwKwK" case) is the previous string plus its own first index.
    let walk = known ? code : previous;
    let depth = 0;
    while (walk >= clear) {
      stack[depth++] = suffix[walk]!;
      walk = prefix[walk]!;
    }
    stack[depth++] = walk;
    const head = walk;
    while (depth > 0 && written < pixels) out[written++] = stack[--depth]!;
    if (!known && written < pixels) out[written++] = head;
    if (previous !== -1 && next < 4096) {
      prefix[next] = previous;
      suffix[next] = head;
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    previous = code;
  }
  return out;
}
