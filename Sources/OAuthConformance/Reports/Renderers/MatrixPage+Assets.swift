/// The page's style sheet and script, inline: the matrix is one file that opens from file://,
/// in a CI artifact or an e-mail, and fetches nothing.
extension MatrixPage {
    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>OAuth client conformance</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1f2328; background: #fff; }
        [hidden] { display: none !important; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 20px 0 6px; }
        .meta { color: #59636e; margin: 0 0 12px; }
        table { border-collapse: collapse; margin-bottom: 24px; }
        th, td { border: 1px solid #d1d9e0; padding: 6px 10px; text-align: left; vertical-align: top; }
        thead th { background: #f6f8fa; }
        .summary th, .summary td { padding: 4px 10px; }
        .summary tbody th { white-space: nowrap; }
        .summary td.capabilities { font-size: 12px; color: #59636e; max-width: 420px; }
        .summary td.capabilities summary { cursor: pointer; white-space: nowrap; }
        .summary td.time { white-space: nowrap; }
        .summary td.count { text-align: right; font-variant-numeric: tabular-nums; }
        .summary tr.conforms th { border-left: 4px solid #1a7f37; }
        .summary tr.nonconforming th { border-left: 4px solid #cf222e; }
        .filters { position: sticky; top: 0; z-index: 2; background: #fff; padding: 8px 0; border-bottom: 1px solid #d1d9e0; }
        .filters fieldset { display: inline; border: 0; margin: 0 20px 0 0; padding: 0; }
        .filters legend { float: left; font-weight: 600; padding: 0; margin: 2px 8px 0 0; }
        .filters label { display: inline-block; white-space: nowrap; margin: 2px 10px 2px 0; cursor: pointer; font-variant-numeric: tabular-nums; }
        .filters label .cell { min-width: 0; cursor: pointer; }
        .filters output { display: block; color: #59636e; font-size: 13px; margin-top: 2px; }
        .failures td.what { max-width: 720px; overflow-wrap: anywhere; }
        .failures .check { font-weight: 600; }
        .failures .observed, .failures .reason { color: #59636e; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
        .failures td.level, .failures td.client { white-space: nowrap; }
        .nothing-failed { border-left: 4px solid #1a7f37; padding: 4px 10px; }
        details.expected > summary { cursor: pointer; font-weight: 600; margin: 8px 0; }
        .matrix thead th { position: sticky; top: var(--filters-height, 0px); z-index: 1; }
        .matrix th.client { text-align: center; min-width: 110px; }
        .matrix tr.area th { background: #eef1f4; text-transform: uppercase; letter-spacing: .05em; font-size: 12px; }
        .matrix th.scenario { font-weight: normal; max-width: 620px; }
        .matrix .title { color: #59636e; font-size: 13px; }
        .matrix td { text-align: center; vertical-align: middle; }
        .matrix td.level { font-size: 12px; color: #59636e; }
        .matrix tr { scroll-margin-top: calc(var(--filters-height, 0px) + 80px); }
        .matrix tr:target > * { background: #fff8c5; }
        .cell { display: inline-block; min-width: 64px; padding: 3px 8px; border: 1px solid transparent; border-radius: 6px;
                font: 600 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; cursor: pointer; }
        .cell .symbol { font-weight: 700; }
        /* Shapes: a border of its own for each status, so that none is told from another by colour alone. */
        .cell.passed { border-style: solid; border-width: 1px; border-radius: 12px; }
        .cell.failed { border-style: solid; border-width: 2px; border-radius: 0; font-weight: 800; }
        .cell.error { border-style: double; border-width: 4px; border-radius: 0; }
        .cell.tolerated_failure { border-style: dashed; border-width: 2px; }
        .cell.inconclusive { border-style: dotted; border-width: 2px; }
        .cell.expected_failure { border-style: solid; border-width: 1px 1px 1px 5px; font-style: italic; }
        .cell.skipped { border-style: none; padding: 4px 9px; font-weight: 400; }
        /* Colours, on top of the shapes. */
        .cell.passed { background: #dafbe1; color: #116329; border-color: #4ac26b; }
        .cell.failed { background: #ffebe9; color: #a40e26; border-color: #cf222e; }
        .cell.error { background: #fff8c5; color: #7d4e00; border-color: #bf8700; }
        .cell.tolerated_failure { background: #fff1e5; color: #953800; border-color: #fb8f44; }
        .cell.inconclusive { background: #fbefff; color: #6e40c9; border-color: #a475f9; }
        .cell.expected_failure { background: #fff5f5; color: #82071e; border-color: #ffaba8; }
        .cell.skipped { background: transparent; color: #59636e; }
        .cell.not-run { color: #8c959f; cursor: default; }
        .cell.dimmed { opacity: .3; }
        .note { color: #9a6700; font-weight: normal; }
        dialog { width: min(1100px, 92vw); max-height: 86vh; border: 1px solid #d1d9e0; border-radius: 8px; padding: 0; }
        dialog::backdrop { background: rgba(31, 35, 40, .45); }
        dialog .bar { position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; text-align: right; }
        dialog .body { padding: 0 16px 16px; }
        dialog h2 { font-size: 16px; }
        pre { background: #f6f8fa; padding: 12px; border-radius: 6px; overflow-x: auto; white-space: pre; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
        </style>
        </head>
        <body>

        """

    /// Every status (in the matrix and in the list of failures) opens its detail; the filters
    /// hide what is not ticked. A row shows when its level is ticked and one of its cells has a
    /// ticked status, and cells of other statuses in it are dimmed; the heading of an area shows
    /// while one of its rows does. The filters run once on load too: a browser going back to
    /// the page restores the boxes as they were left.
    static let tail = """
        <dialog id="detail"><div class="bar"><form method="dialog"><button>Close</button></form></div><div class="body"></div></dialog>
        <script>
        const dialog = document.getElementById("detail");
        for (const cell of document.querySelectorAll("button.cell")) {
          cell.addEventListener("click", () => {
            const body = dialog.querySelector(".body");
            body.replaceChildren(document.getElementById(cell.dataset.detail).content.cloneNode(true));
            dialog.showModal();
          });
        }

        const filters = document.getElementById("filters");
        const rows = [...document.querySelectorAll(".matrix tbody tr[data-level]")];
        const areas = [...document.querySelectorAll(".matrix tbody tr.area")];
        const problems = [...document.querySelectorAll("#failures > table.failures tbody tr")];
        const expected = [...document.querySelectorAll("#failures details.expected tbody tr")];
        const ticked = name => new Set([...filters.querySelectorAll(`input[name="${name}"]:checked`)].map(box => box.value));
        const shown = list => list.filter(item => !item.hidden).length;
        function applyFilters() {
          const statuses = ticked("status"), levels = ticked("level");
          for (const row of rows) {
            let anyTicked = false;
            for (const cell of row.querySelectorAll("button.cell")) {
              const isTicked = statuses.has(cell.dataset.status);
              cell.classList.toggle("dimmed", !isTicked);
              anyTicked ||= isTicked;
            }
            row.hidden = !(anyTicked && levels.has(row.dataset.level));
          }
          for (const area of areas) {
            let next = area.nextElementSibling, anyShown = false;
            for (; next && !next.classList.contains("area"); next = next.nextElementSibling) anyShown ||= !next.hidden;
            area.hidden = !anyShown;
          }
          for (const entry of [...problems, ...expected]) {
            entry.hidden = !(statuses.has(entry.dataset.status) && levels.has(entry.dataset.level));
          }
          document.getElementById("filter-counts").textContent =
            `Showing ${shown(rows)} of ${rows.length} scenarios, ${shown(problems)} of ${problems.length} entries of What failed, `
            + `${shown(expected)} of ${expected.length} expected failures`;
        }
        filters.addEventListener("change", applyFilters);
        applyFilters();

        // The matrix's header row sticks below the filters, however many lines they wrap to.
        const underFilters = () => document.documentElement.style.setProperty("--filters-height", filters.offsetHeight + "px");
        addEventListener("resize", underFilters);
        underFilters();
        </script>
        </body>
        </html>

        """
}
