extension LoadReport {
    /// The human summary: settings, rates, latencies, histograms, checks.
    public var text: String {
        var o: [String] = []
        let rate = targetRate.map { "\(group($0))/s" } ?? "max"
        o.append("puzzle bench: \(bots) \(transport == "tcp" ? "" : transport + " ")bots in \(rooms) room(s), \(board), \(steps) steps per grab, rate \(rate), \(fmt(duration)) s measured after \(fmt(warmup)) s warm-up, server \(server)")
        o.append("")
        o.append("  drags/s         \(lpad(group(dragsPerSecond), 14))   (target \(rate); \(group(Double(dragsSent))) sent in window, \(dragsRefused) refused)")
        o.append("  deliveries/s    \(lpad(group(deliveriesPerSecond), 14))")
        o.append("  event lines/s   \(lpad(group(linesPerSecond), 14))   (drags and \(group(Double(eventLines) / duration))/s other events)")
        o.append("  grabs/s         \(lpad(group(Double(grabsOK) / duration), 14))   (\(heldRefusals) HELD refusals)")
        o.append("  drops/s         \(lpad(group(Double(dropsOK) / duration), 14))")
        o.append("  rate limited    \(lpad("\(rateLimited)", 14))")
        o.append("  errors          \(lpad("\(errors)", 14))")
        o.append("  disconnects     \(lpad("\(disconnects)", 14))")
        o.append("  skipped slots   \(lpad("\(skippedSlots)", 14))   (no piece free or puzzle solved)")
        if solves.isEmpty {
            o.append("  solves                       0")
        } else {
            let s = solves.sorted()
            o.append("  solves          \(lpad("\(s.count)", 14))   (time to solve: median \(s[s.count / 2]) ms, min \(s[0]) ms, max \(s[s.count - 1]) ms)")
        }
        o.append("")
        o.append("  latency (us)          p50       p90       p99     p99.9       max   samples")
        for (name, l) in [("reply", reply), ("broadcast", broadcast)] {
            o.append("  " + pad(name, 14) + [l.p50, l.p90, l.p99, l.p999, l.max].map { lpad(group(Double($0)), 10) }.joined() + lpad(group(Double(l.count)), 10))
        }
        o.append("")
        o.append("  broadcast latency:")
        o += broadcastHistogram.textBars()
        o.append("")
        o.append("  totals: drags \(totalDragsSent) sent = \(totalDragsOK) OK + \(totalDragsRefused) ERR; deliveries \(totalDeliveries) of \(totalExpectedDeliveries) expected; lost holds \(lostHolds)")
        o.append("  parts (--play \(play)): \(merges) merges, \(partsCarriedIn) parts carried into the board (\(piecesCarriedIn) pieces), largest part \(largestPart), \(partsAtEnd) parts on the table at the end")
        var resources = "  resources: bench CPU \(fmt(benchCPUSeconds)) s (\(fmt(benchPlayCPUSeconds ?? 0)) s during play), bench peak RSS \(benchPeakRSS / 1_048_576) MiB"
        if let c = serverCPUSeconds { resources += "; server CPU \(fmt(c)) s during play (\(Int(c / (warmup + duration) * 100))% of a core)" }
        if let r = serverPeakRSS { resources += ", server peak RSS \(r / 1_048_576) MiB" }
        o.append(resources)
        if let serverStats { o.append("  server: \(serverStats)") }
        o.append("")
        for c in checks { o.append("  [\(c.passed ? "pass" : "FAIL")] \(c.name)" + (c.passed ? "" : ": \(c.detail)")) }
        for n in notes { o.append("  note: \(n)") }
        o.append(passed ? "PASS" : "FAIL")
        return o.joined(separator: "\n")
    }

    /// The machine summary: one JSON object.
    public var json: String {
        func lat(_ l: LatencySummary) -> String {
            "{\"p50\":\(l.p50),\"p90\":\(l.p90),\"p99\":\(l.p99),\"p999\":\(l.p999),\"max\":\(l.max),\"mean\":\(Int(l.mean)),\"count\":\(l.count)}"
        }
        func str(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out += ch.value < 0x20 ? " " : String(ch)
                }
            }
            return out + "\""
        }
        var f: [String] = [
            "\"passed\":\(passed)", "\"bots\":\(bots)", "\"rooms\":\(rooms)", "\"board\":\(str(board))", "\"steps\":\(steps)",
            "\"target_rate\":\(targetRate.map { "\(Int($0))" } ?? "\"max\"")", "\"duration_s\":\(duration)", "\"warmup_s\":\(warmup)",
            "\"server\":\(str(server))", "\"transport\":\(str(transport))",
            "\"drags_per_sec\":\(Int(dragsPerSecond))", "\"deliveries_per_sec\":\(Int(deliveriesPerSecond))",
            "\"lines_per_sec\":\(Int(linesPerSecond))", "\"event_lines\":\(eventLines)",
            "\"drags_sent\":\(dragsSent)", "\"drags_ok\":\(dragsOK)", "\"drags_refused\":\(dragsRefused)", "\"deliveries\":\(deliveries)",
            "\"grabs_ok\":\(grabsOK)", "\"drops_ok\":\(dropsOK)", "\"held_refusals\":\(heldRefusals)", "\"rate_limited\":\(rateLimited)",
            "\"errors\":\(errors)", "\"disconnects\":\(disconnects)", "\"skipped_slots\":\(skippedSlots)",
            "\"reply_latency_us\":\(lat(reply))", "\"broadcast_latency_us\":\(lat(broadcast))",
            "\"solve_ms\":[\(solves.map(String.init).joined(separator: ","))]",
            "\"total_drags_sent\":\(totalDragsSent)", "\"total_drags_ok\":\(totalDragsOK)", "\"total_drags_refused\":\(totalDragsRefused)",
            "\"total_deliveries\":\(totalDeliveries)", "\"total_expected_deliveries\":\(totalExpectedDeliveries)",
            "\"total_errors\":\(totalErrors)", "\"lost_holds\":\(lostHolds)",
            "\"play\":\(str(play))", "\"merges\":\(merges)", "\"parts_carried_in\":\(partsCarriedIn)",
            "\"pieces_carried_in\":\(piecesCarriedIn)", "\"largest_part\":\(largestPart)", "\"parts_at_end\":\(partsAtEnd)",
            "\"event_gaps\":\(eventGaps)", "\"mirror_errors\":\(mirrorErrors)", "\"digest_mismatches\":\(digestMismatches)", "\"view_mismatches\":\(viewMismatches)",
            "\"held_at_end\":\(heldAtEnd)", "\"piece_errors\":\(pieceErrors)", "\"part_errors\":\(partErrors)", "\"snapshots_checked\":\(snapshotsChecked)", "\"unexpected_replies\":\(unexpectedReplies)",
            "\"bench_cpu_s\":\(fmt(benchCPUSeconds))", "\"bench_play_cpu_s\":\(fmt(benchPlayCPUSeconds ?? 0))", "\"bench_peak_rss_bytes\":\(benchPeakRSS)",
        ]
        if let c = serverCPUSeconds { f.append("\"server_cpu_s\":\(fmt(c))") }
        if let r = serverPeakRSS { f.append("\"server_peak_rss_bytes\":\(r)") }
        if let s = serverStats { f.append("\"server_stats\":\(str(s))") }
        f.append("\"checks\":{\(checks.map { "\(str($0.name)):\($0.passed)" }.joined(separator: ","))}")
        f.append("\"notes\":[\(notes.map(str).joined(separator: ","))]")
        return "{" + f.joined(separator: ",") + "}"
    }
}

/// Two decimals.
func fmt(_ x: Double) -> String {
    let c = Int((x * 100).rounded())
    let frac = abs(c % 100)
    return "\(c / 100).\(frac < 10 ? "0" : "")\(frac)"
}
