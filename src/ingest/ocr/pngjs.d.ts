// pngjs (the PNG decoder of images read with OCR, and of the image tests) ships no types: the part used.
declare module "pngjs" {
  interface PngOptions {
    width: number;
    height: number;
    /** 0 grey, 2 RGB, 4 grey + alpha, 6 RGBA. */
    colorType?: number;
    inputColorType?: number;
    bitDepth?: number;
  }
  export class PNG {
    constructor(options: PngOptions);
    width: number;
    height: number;
    /** RGBA, 4 bytes per pixel (or as inputColorType says, when writing). */
    data: Buffer;
    static sync: { read(png: Buffer): PNG; write(png: PNG, options?: Partial<PngOptions>): Buffer };
  }
}
