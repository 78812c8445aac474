// Minimal animated GIF89a encoder: one global palette, looping forever (NETSCAPE2.0), LZW-compressed
// frames of indexed pixels. Written here (no image dependency); the timing of code-size growth follows
// the decoder, which adds its table entry one code later than the encoder.

export interface GifFrame {
  /** width × height palette indices. */
  pixels: Uint8Array;
  /** Hundredths of a second. */
  delayCs: number;
}

export function encodeGif(width: number, height: number, palette: Array<[number, number, number]>, frames: GifFrame[]): Buffer {
  const tableBits = Math.max(1, Math.ceil(Math.log2(Math.max(2, palette.length)))); // 2^tableBits entries
  const out = new ByteWriter();
  out.ascii("GIF89a");
  out.u16(width).u16(height);
  out.byte(0x80 | ((tableBits - 1) << 4) | (tableBits - 1)).byte(0).byte(0); // global table, bg 0, no aspect
  for (let i = 0; i < 1 << tableBits; i++) {
    const [r, g, b] = palette[i] ?? [0, 0, 0];
    out.byte(r).byte(g).byte(b);
  }
  out.bytes([0x21, 0xff, 0x0b]).ascii("NETSCAPE2.0").bytes([0x03, 0x01, 0x00, 0x00, 0x00]); // loop forever
  const minCodeSize = Math.max(2, tableBits);
  for (const frame of frames) {
    if (frame.pixels.length !== width * height) throw new RangeError("frame size does not match the image");
    out.bytes([0x21, 0xf9, 0x04, 0x04]).u16(Math.max(2, Math.round(frame.delayCs))).bytes([0x00, 0x00]); // keep previous
    out.byte(0x2c).u16(0).u16(0).u16(width).u16(height).byte(0); // full-frame image, no local table
    out.byte(minCodeSize);
    const data = lzwEncode(minCodeSize, frame.pixels);
    for (let i = 0; i < data.length; i += 255) {
      const block = data.subarray(i, i + 255);
      out.byte(block.length).bytes(block);
    }
    out.byte(0);
  }
  out.byte(0x3b);
  return out.toBuffer();
}

export function lzwEncode(minCodeSize: number, indices: Uint8Array): Uint8Array {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const bits = new BitWriter();
  let codeSize = minCodeSize + 1;
  let next = end + 1;
  let table = new Map<number, number>();
  bits.write(clear, codeSize);
  if (indices.length === 0) {
    bits.write(end, codeSize);
    return bits.finish();
  }
  let prefix = indices[0]!;
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i]!;
    const key = (prefix << 8) | k;
    const found = table.get(key);
    if (found !== undefined) {
      prefix = found;
      continue;
    }
    bits.write(prefix, codeSize);
    if (next === 4096) {
      // Table full: start over, as the decoder will on seeing the clear code.
      bits.write(clear, codeSize);
      table = new Map();
      codeSize = minCodeSize + 1;
      next = end + 1;
    } else {
      if (next >= 1 << codeSize) codeSize++;
      table.set(key, next++);
    }
    prefix = k;
  }
  bits.write(prefix, codeSize);
  // Reading that last code, the decoder adds the entry we never made, and may widen its codes.
  if (next === 1 << codeSize && codeSize < 12) codeSize++;
  bits.write(end, codeSize);
  return bits.finish();
}

class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;

  /** LSB-first, as GIF packs codes. */
  write(code: number, size: number): void {
    this.acc |= code << this.count;
    this.count += size;
    while (this.count >= 8) {
      this.bytes.push(this.acc & 0xff);
      this.acc >>>= 8;
      this.count -= 8;
    }
  }

  finish(): Uint8Array {
    if (this.count > 0) this.bytes.push(this.acc & 0xff);
    return Uint8Array.from(this.bytes);
  }
}

class ByteWriter {
  private readonly parts: number[] = [];
  byte(value: number) {
    this.parts.push(value & 0xff);
    return this;
  }
  u16(value: number) {
    return this.byte(value).byte(value >> 8);
  }
  bytes(values: ArrayLike<number>) {
    for (let i = 0; i < values.length; i++) this.parts.push(values[i]! & 0xff);
    return this;
  }
  ascii(text: string) {
    for (const char of text) this.parts.push(char.charCodeAt(0));
    return this;
  }
  toBuffer(): Buffer {
    return Buffer.from(this.parts);
  }
}
