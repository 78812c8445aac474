// pngjs (a dev dependency, the PNG decoder of the image tests) ships no types: the part the tests use.
declare module "pngjs" {
  export class PNG {
    constructor(options: { width: number; height: number });
    width: number;
    height: number;
    /** RGBA, 4 bytes per pixel. */
    data: Buffer;
    static sync: { read(png: Buffer): PNG; write(png: PNG): Buffer };
  }
}
