// A small GIF decoder for tests: reads back what gifenc writes for the clips (global palette, full
// frames, no interlace), so the encoder is checked by an independent LZW implementation.

export interface DecodedGif {
  width: number;
  height: number;
  palette: Array<[number, number, number]>;
  loops: boolean;
  frames: Array<{ pixels: Uint8Array; delayCs: number }>;
}

export function decodeGif(bytes: Uint8Array): DecodedGif {
  let p = 0;
  const u8 = () => bytes[p++]!;
  const u16 = () => u8() | (u8() << 8);
  const ascii = (n: number) => String.fromCharCode(...bytes.subarray(p, (p += n)));
  if (ascii(6) !== "GIF89a") throw new Error("not GIF89a");
  const width = u16();
  const height = u16();
  const packed = u8();
  p += 2;
  const palette: Array<[number, number, number]> = [];
  if (packed & 0x80) for (let i = 0; i < 1 << ((packed & 7) + 1); i++) palette.push([u8(), u8(), u8()]);
  const frames: DecodedGif["frames"] = [];
  let loops = false;
  let delayCs = 0;
  for (;;) {
    const block = u8();
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = u8();
      const chunks: number[] = [];
      for (let size = u8(); size > 0; size = u8()) chunks.push(...bytes.subarray(p, (p += size)));
      if (label === 0xf9) delayCs = chunks[1]! | (chunks[2]! << 8);
      if (label === 0xff && String.fromCharCode(...chunks.slice(0, 11)) === "NETSCAPE2.0") loops = true;
      continue;
    }
    if (block !== 0x2c) throw new Error(`unexpected block ${block} at ${p - 1}`);
    p += 8; // position and size: always the full frame here
    if (u8() & 0x80) throw new Error("local palettes are not expected");
    const minCodeSize = u8();
    const data: number[] = [];
    for (let size = u8(); size > 0; size = u8()) data.push(...bytes.subarray(p, (p += size)));
    frames.push({ pixels: lzwDecode(minCodeSize, Uint8Array.from(data), width * height), delayCs });
  }
  return { width, height, palette, loops, frames };
}

function lzwDecode(minCodeSize: number, data: Uint8Array, pixelCount: number): Uint8Array {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out = new Uint8Array(pixelCount);
  let outPos = 0;
  let codeSize = minCodeSize + 1;
  let table: number[][] = [];
  const reset = () => {
    table = Array.from({ length: clear + 2 }, (_, i) => [i]);
    codeSize = minCodeSize + 1;
  };
  reset();
  let bitPos = 0;
  let previous: number[] | null = null;
  for (;;) {
    let code = 0;
    for (let i = 0; i < codeSize; i++, bitPos++) {
      if (bitPos >> 3 >= data.length) throw new Error("LZW data ended without an end code");
      code |= ((data[bitPos >> 3]! >> (bitPos & 7)) & 1) << i;
    }
    if (code === clear) {
      reset();
      previous = null;
      continue;
    }
    if (code === end) break;
    let entry: number[];
    if (code < table.length) entry = table[code]!;
    else if (code === table.length && previous) entry = [...previous, previous[0]!];
    else throw new Error(`bad LZW code ${code}`);
    for (const v of entry) out[outPos++] = v;
    if (previous) table.push([...previous, entry[0]!]);
    previous = entry;
    if (table.length === 1 << codeSize && codeSize < 12) codeSize++;
  }
  if (outPos !== pixelCount) throw new Error(`decoded ${outPos} pixels, expected ${pixelCount}`);
  return out;
}
