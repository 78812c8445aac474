// Imported first by the CLI (main.ts), so that it runs before any other module does: `serve` starts itself
// again with the server's runtime settings (lib/server-runtime.ts) at the cost of one more runtime start
// (~150 ms for the binary).
import { relaunchWithServerRuntime, servesHttp } from "./lib/server-runtime";

if (servesHttp(process.argv.slice(2))) relaunchWithServerRuntime();
