import ChaosTarget

/// The HTML report's look, apart from what it says.
enum HTMLReportStyle {
    /// The report's only stylesheet, inlined. Light theme, system fonts, no
    /// external resource. The "show only failures" filter is the rule on
    /// `#only-failures:checked ~ main .ok`: no JavaScript.
    static let stylesheet = """
        :root {
          color-scheme: light;
          --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --bg: #ffffff;
          --passed: #1a7f37; --passed-bg: #dafbe1;
          --deviated: #cf222e; --deviated-bg: #ffebe9;
          --errored: #bc4c00; --errored-bg: #fff1e5;
          --inconclusive: #9a6700; --inconclusive-bg: #fff8c5;
          --skipped: #59636e; --skipped-bg: #eff2f5;
          --interrupted: #8250df; --interrupted-bg: #fbefff;
          --step: #54aeff; --injection: #e16f24; --trap: #a40e26; --recovery: #2da44e;
          --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
        }
        * { box-sizing: border-box; }
        body {
          margin: 0; padding: 24px 32px 48px; background: var(--soft); color: var(--fg);
          font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
        }
        code, pre { font-family: var(--mono); font-size: 12.5px; }
        pre { margin: 0; white-space: pre-wrap; word-break: break-word; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 0; word-break: break-word; }
        h3 { font-size: 13px; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
        .run, .case, .index { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 18px 20px; margin: 0 0 16px; }
        .run-result { margin: 0 0 12px; color: var(--muted); }
        .meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
        .meta dt { color: var(--muted); }
        .meta dd { margin: 0; word-break: break-word; }
        .command { display: block; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; word-break: break-all; }
        .counts { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0 0; }
        .count { min-width: 110px; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--line); background: var(--soft); }
        .count b { display: block; font-size: 22px; line-height: 1.2; }
        .count.zero { opacity: .45; }
        .count.v-passed:not(.zero) { background: var(--passed-bg); } .count.v-deviated:not(.zero) { background: var(--deviated-bg); }
        .count.v-errored:not(.zero) { background: var(--errored-bg); }
        .count.v-inconclusive:not(.zero) { background: var(--inconclusive-bg); } .count.v-inconclusive b { color: var(--inconclusive); }
        .count.v-interrupted:not(.zero) { background: var(--interrupted-bg); }
        .count.v-passed b { color: var(--passed); } .count.v-deviated b { color: var(--deviated); }
        .count.v-errored b { color: var(--errored); } .count.v-skipped b { color: var(--skipped); }
        .count.v-interrupted b { color: var(--interrupted); }
        .filter { display: inline-block; margin: 0 0 12px; font-weight: 600; cursor: pointer; vertical-align: middle; }
        #only-failures { width: 16px; height: 16px; margin: 0 6px 12px 2px; vertical-align: middle; cursor: pointer; }
        #only-failures:checked ~ main .ok { display: none; }
        .no-failures { display: none; }
        #only-failures:checked ~ main .no-failures { display: block; }
        .badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
        .badge.v-passed { color: var(--passed); background: var(--passed-bg); }
        .badge.v-deviated { color: var(--deviated); background: var(--deviated-bg); }
        .badge.v-errored { color: var(--errored); background: var(--errored-bg); }
        .badge.v-inconclusive { color: var(--inconclusive); background: var(--inconclusive-bg); }
        .badge.v-skipped { color: var(--skipped); background: var(--skipped-bg); }
        .badge.v-interrupted { color: var(--interrupted); background: var(--interrupted-bg); }
        .case { border-left-width: 5px; }
        .case.v-passed { border-left-color: var(--passed); } .case.v-deviated { border-left-color: var(--deviated); }
        .case.v-errored { border-left-color: var(--errored); } .case.v-skipped { border-left-color: var(--skipped); }
        .case.v-interrupted { border-left-color: var(--interrupted); } .case.v-inconclusive { border-left-color: var(--inconclusive); }
        table.faults td { vertical-align: top; } table.faults tr.idle td { background: var(--inconclusive-bg); }
        .baseline { font-size: 12px; font-weight: 600; padding: 1px 7px; border-radius: 10px; border: 1px solid currentColor; margin-left: 6px; }
        .baseline-new { color: var(--deviated); } .baseline-known { color: var(--skipped); } .baseline-fixed { color: var(--passed); }
        .count.baseline-new b { color: var(--deviated); } .count.baseline-fixed b { color: var(--passed); }
        .case-head { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
        .case-summary { margin: 6px 0 10px; }
        .explanation { margin: 6px 0 10px; padding: 8px 10px; border-left: 3px solid var(--deviated); background: var(--deviated-bg); }
        .facts { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--muted); margin: 0 0 10px; }
        .facts b { color: var(--fg); font-weight: 600; }
        .recovery { color: var(--passed); font-weight: 700; }
        .recovery.none { color: var(--muted); font-weight: 400; }
        .reproduce { margin: 0 0 6px; }
        .harness-error { border: 1px solid var(--errored); background: var(--errored-bg); border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
        .case.v-skipped .harness-error { border-color: var(--line); background: var(--soft); }
        .left-behind { border: 1px solid var(--errored); border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
        .left-behind ul { margin: 4px 0 0; padding-left: 20px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: 5px 10px 5px 0; border-bottom: 1px solid var(--line); }
        th { font-size: 12px; color: var(--muted); font-weight: 600; }
        th.num, td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; padding-right: 16px; }
        .detail { display: block; color: var(--muted); white-space: pre-wrap; word-break: break-word; }
        .timeline { position: relative; margin: 8px 0 4px; }
        .timeline.empty { color: var(--muted); }
        .track { position: relative; height: 22px; background: var(--soft); border: 1px solid var(--line); border-radius: 4px; }
        .track.marks { height: 18px; margin-top: 4px; background: none; border: none; border-top: 1px dashed var(--line); border-radius: 0; }
        .seg { position: absolute; top: 3px; bottom: 3px; min-width: 3px; border-radius: 2px; background: var(--step); opacity: .85; }
        .seg.o-error { background: var(--deviated); } .seg.o-expected-error { background: #d4a72c; }
        .seg.o-trapped { background: var(--trap); } .seg.o-timed-out { background: var(--errored); }
        .mark { position: absolute; top: -6px; width: 11px; height: 11px; margin-left: -5px; transform: rotate(45deg); background: var(--injection); border: 1px solid #fff; }
        .mark.trap { top: -29px; height: 40px; width: 3px; margin-left: -1px; transform: none; background: var(--trap); border: none; }
        .recovery-span { position: absolute; top: 4px; height: 8px; min-width: 3px; background: var(--recovery); border-radius: 4px; opacity: .8; }
        .axis { display: flex; justify-content: space-between; color: var(--muted); font-size: 11px; font-variant-numeric: tabular-nums; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; color: var(--muted); font-size: 12px; margin: 2px 0 8px; }
        .key { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
        .key.step { background: var(--step); } .key.injection { background: var(--injection); transform: rotate(45deg) scale(.85); }
        .key.trap { background: var(--trap); width: 3px; } .key.recovery { background: var(--recovery); border-radius: 5px; }
        .events .ev-injection td.kind { color: var(--injection); font-weight: 600; }
        .events .ev-trap td { color: var(--trap); font-weight: 600; }
        .events .ev-log td.kind { color: var(--muted); }
        .outcome.lv-error, .outcome.lv-critical { color: var(--deviated); font-weight: 600; } .outcome.lv-warning { color: var(--inconclusive); }
        .events .ev-recovered td { color: var(--passed); font-weight: 600; }
        .outcome { font-family: var(--mono); font-size: 12px; }
        .outcome.o-error, .outcome.o-trapped, .outcome.o-unexpected-success { color: var(--deviated); font-weight: 600; }
        .outcome.o-timed-out { color: var(--errored); font-weight: 600; }
        .trap-box { border: 1px solid var(--deviated); background: var(--deviated-bg); border-radius: 6px; padding: 10px 12px; }
        .trap-box .meta { margin-bottom: 6px; }
        details summary { cursor: pointer; color: var(--muted); }
        details pre { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 8px; margin-top: 6px; max-height: 420px; overflow: auto; }
        .pass { color: var(--passed); font-weight: 700; } .fail { color: var(--deviated); font-weight: 700; }
        tr.failed td { background: var(--deviated-bg); }
        .provenance { margin-top: 12px; color: var(--muted); font-size: 12px; }
        .index td a { color: inherit; font-weight: 600; }
        footer { color: var(--muted); font-size: 12px; text-align: center; }
        @media print { body { background: #fff; padding: 0; } #only-failures, .filter { display: none; } }
        """
}
