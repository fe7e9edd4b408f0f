// Builds the Activity's page into dist/: one bundle (the page's modules and the Embedded App SDK), its
// stylesheet and index.html. Run by the Makefile (`make activity`) after `npm ci`; nothing is fetched at
// run time. The page's words come from words.json, which tools/activity_words.py writes from the catalogs
// first (the Makefile runs it), so the bundle carries English and French.
import { build } from "esbuild";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: true,
  sourcemap: true,
  outfile: join(dist, "app.js"),
  logLevel: "warning",
});
await copyFile(join(here, "src", "index.html"), join(dist, "index.html"));
await copyFile(join(here, "src", "app.css"), join(dist, "app.css"));
// The stamp the Makefile compares with the sources: written last, so an interrupted build is redone.
await writeFile(join(dist, ".built"), new Date().toISOString() + "\n");
