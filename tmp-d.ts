import { renderScan, scannedPdf } from "./tests/support/scans.ts";
const { getDocumentProxy, getResolvedPDFJS } = await import("unpdf");
const scan = await renderScan(["hello"], { dpi: 200, widthInches: 5, heightInches: 1.4 });
const bytes = scannedPdf([scan], [0], 200);
const pdf = await getDocumentProxy(bytes.slice(), { verbosity: 5, maxImageSize: 100000, stopAtErrors: true } as any);
const page = await pdf.getPage(1);
try { const ops = await page.getOperatorList(); console.log("ops", ops.fnArray); } catch (e) { console.log("err", e); }
