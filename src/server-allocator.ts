// Imported first by the CLI (main.ts), so that it runs before any other module does: `serve` starts itself
// again with the server's allocator setting (lib/allocator.ts) at the cost of one more runtime start (~150 ms
// for the binary).
import { relaunchWithServerAllocator, servesHttp } from "./lib/allocator";

if (servesHttp(process.argv.slice(2))) relaunchWithServerAllocator();
