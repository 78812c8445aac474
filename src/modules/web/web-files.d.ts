// The admin page's assets, imported `with { type: "file" }`: each import is the file's path (embedded
// in the compiled binary). The browser scripts are plain JavaScript, never compiled by TypeScript.
declare module "*.js" {
  const path: string;
  export default path;
}
declare module "*.mjs" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
