// pngjs (installed with qrcode, a dev dependency) ships no types: the part the image tests use.
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
