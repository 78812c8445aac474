// The admin page's assets, imported `with { type: "file" }`: each import is the file's path (embedded
// in the compiled binary). The browser script is plain JavaScript, never compiled by TypeScript.
declare module "*/web/app.js" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
