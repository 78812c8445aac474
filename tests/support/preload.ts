// Loaded before every test file (bunfig.toml): a hook after the whole run.
import { afterAll } from "bun:test";
import { removeTempDirs } from "./temp-dirs";

afterAll(removeTempDirs);
